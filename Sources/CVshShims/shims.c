#define _GNU_SOURCE
#include "vsh_shims.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>


// ---- libedit ----------------------------------------------------------------------------

int vsh_el_set_editor(EditLine *el, const char *mode) { return el_set(el, EL_EDITOR, mode); }
int vsh_el_set_signal(EditLine *el, int on) { return el_set(el, EL_SIGNAL, on); }

// The prompt text lives here because EL_PROMPT takes a function, not a string.
static char *vsh_prompt_text = NULL;
static char *vsh_prompt_fn(EditLine *el) {
    (void)el;
    return vsh_prompt_text ? vsh_prompt_text : "";
}
int vsh_el_set_prompt_text(EditLine *el, const char *prompt) {
    char *copy = strdup(prompt ? prompt : "");
    if (!copy) return -1;
    free(vsh_prompt_text);
    vsh_prompt_text = copy;
    return el_set(el, EL_PROMPT, vsh_prompt_fn);
}

int vsh_el_set_history(EditLine *el, History *h) { return el_set(el, EL_HIST, history, h); }
int vsh_el_add_function(EditLine *el, const char *name, const char *help, vsh_el_func_t fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}
int vsh_el_bind(EditLine *el, const char *key, const char *name) {
    return el_set(el, EL_BIND, key, name, NULL);
}
int vsh_el_set_getc(EditLine *el, vsh_el_getc_t fn) { return el_wset(el, EL_GETCFN, fn); }
int vsh_el_set_clientdata(EditLine *el, void *data) { return el_set(el, EL_CLIENTDATA, data); }
int vsh_el_refresh(EditLine *el) { return el_set(el, EL_REFRESH); }
void *vsh_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}
int vsh_cc_refresh(void) { return CC_REFRESH; }
int vsh_cc_redisplay(void) { return CC_REDISPLAY; }
int vsh_cc_newline(void) { return CC_NEWLINE; }
int vsh_cc_norm(void) { return CC_NORM; }
int vsh_cc_error(void) { return CC_ERROR; }

// ---- libedit history --------------------------------------------------------------------

int vsh_history_set_size(History *h, int size) { HistEvent ev; return history(h, &ev, H_SETSIZE, size); }
int vsh_history_enter(History *h, const char *line) { HistEvent ev; return history(h, &ev, H_ENTER, line); }
int vsh_history_clear(History *h) { HistEvent ev; return history(h, &ev, H_CLEAR); }
int vsh_history_set_unique(History *h, int unique) { HistEvent ev; return history(h, &ev, H_SETUNIQUE, unique); }

// ---- sphinxbase logging -----------------------------------------------------------------

#include <sphinxbase/err.h>

static void vsh_ps_discard(void *user_data, err_lvl_t level, const char *fmt, ...) {
    (void)user_data; (void)level; (void)fmt;
}

int vsh_ps_log_to_file(const char *path) {
    if (path == NULL) {
        // Both: the callback takes E_INFO and the rest; the config dump at ps_init goes
        // straight to the log FILE, which must be NULL to stay quiet.
        err_set_logfp(NULL);
        err_set_callback(vsh_ps_discard, NULL);
        return 0;
    }
    return err_set_logfile(path);
}

// ---- diagnostics --------------------------------------------------------------------------

int vsh_library_file(const char *symbol, char *out, size_t size) {
    void *address = dlsym(RTLD_DEFAULT, symbol);
    Dl_info info;
    if (address == NULL || dladdr(address, &info) == 0 || info.dli_fname == NULL) return -1;
    char *real = realpath(info.dli_fname, NULL);
    const char *name = real ? real : info.dli_fname;
    int n = snprintf(out, size, "%s", name);
    free(real);
    return (n < 0 || (size_t)n >= size) ? -1 : 0;
}

// ---- ALSA error messages ------------------------------------------------------------------

#include <alsa/asoundlib.h>

static _Thread_local char vsh_alsa_message[512];

// Keeps the first message: when a name fails to resolve, ALSA's first line names the cause
// ("cannot find card '0'") and its last only repeats the symptom ("Unknown PCM default").
static void vsh_alsa_error_handler(const char *file, int line, const char *function,
                                   int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function;
    if (vsh_alsa_message[0] != '\0') return;
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(vsh_alsa_message, sizeof vsh_alsa_message, fmt, args);
    va_end(args);
    if (err != 0 && n >= 0 && (size_t)n < sizeof vsh_alsa_message) {
        snprintf(vsh_alsa_message + n, sizeof vsh_alsa_message - (size_t)n, ": %s", snd_strerror(err));
    }
}

void vsh_alsa_capture_errors(void) { snd_lib_error_set_handler(vsh_alsa_error_handler); }
void vsh_alsa_clear_error(void) { vsh_alsa_message[0] = '\0'; }
const char *vsh_alsa_first_error(void) { return vsh_alsa_message; }

// ---- speech features ------------------------------------------------------------------------

#include <sphinxbase/fe.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/ckd_alloc.h>

int vsh_speech_features(cmd_ln_t *config, const int16_t *samples, size_t count, float **out, int *frames) {
    *out = NULL;
    *frames = 0;
    fe_t *fe = fe_init_auto_r(config);
    if (fe == NULL) return -1;
    feat_t *feat = feat_init("1s_c_d_dd", CMN_BATCH, 0, AGC_NONE, 0, 13);
    if (feat == NULL) { fe_free(fe); return -1; }
    int rc = -1;
    int32 room = 0;
    size_t left = count;
    const int16 *p = samples;
    fe_process_frames(fe, NULL, &left, NULL, &room, NULL);  // how many frames count samples make
    room += 2;
    mfcc_t **cep = (mfcc_t **)ckd_calloc_2d(room, fe_get_output_size(fe), sizeof(mfcc_t));
    int32 n = room;
    left = count;
    fe_start_utt(fe);
    if (fe_process_frames(fe, &p, &left, cep, &n, NULL) >= 0) {
        int32 last = 0;
        if (n < room) fe_end_utt(fe, cep[n], &last);
        n += last;
        if (n > 0) {
            mfcc_t ***f = feat_array_alloc(feat, n);
            int32 ncep = n;
            int32 made = feat_s2mfc2feat_live(feat, cep, &ncep, 1, 1, f);
            int dim = feat_dimension(feat);
            *out = malloc(sizeof(float) * (size_t)made * (size_t)dim);
            if (*out != NULL) {
                for (int32 i = 0; i < made; i++)
                    for (int d = 0; d < dim; d++) (*out)[i * dim + d] = (float)f[i][0][d];
                *frames = made;
                rc = 0;
            }
            feat_array_free(f);
        } else {
            rc = 0;
        }
    }
    ckd_free_2d(cep);
    feat_free(feat);
    fe_free(fe);
    return rc;
}
