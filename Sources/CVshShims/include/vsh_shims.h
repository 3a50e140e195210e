// The C that Swift cannot call directly, kept small. Every symbol is prefixed vsh_.
//
// Why each exists:
// - el_set / el_get / history are variadic: Swift does not import variadic C functions.
// - sphinxbase's err_set_callback takes a variadic callback, which Swift cannot write.
// - sphinxbase's feature computation hands back mfcc_t*** arrays, simpler walked in C.
#ifndef VSH_SHIMS_H
#define VSH_SHIMS_H

#include <histedit.h>
#include <stdio.h>
#include <stdint.h>
#include <sphinxbase/cmd_ln.h>

/// Signature of an editor function bound to a key (EL_ADDFN): returns a CC_* code.
typedef unsigned char (*vsh_el_func_t)(EditLine *el, int ch);
/// Signature of the character reader (EL_GETCFN): store one wchar_t, return 1, 0 on EOF, -1 on error.
typedef int (*vsh_el_getc_t)(EditLine *el, wchar_t *ch);

// libedit: el_set variants.
int vsh_el_set_editor(EditLine *el, const char *mode);
int vsh_el_set_signal(EditLine *el, int on);
int vsh_el_set_prompt_text(EditLine *el, const char *prompt);
int vsh_el_set_history(EditLine *el, History *h);
int vsh_el_add_function(EditLine *el, const char *name, const char *help, vsh_el_func_t fn);
int vsh_el_bind(EditLine *el, const char *key, const char *name);
int vsh_el_set_getc(EditLine *el, vsh_el_getc_t fn);
int vsh_el_set_clientdata(EditLine *el, void *data);
/// Draws the prompt and line afresh from the cursor's place (EL_REFRESH): for after vsh
/// printed lines of its own below a cleared prompt.
int vsh_el_refresh(EditLine *el);
void *vsh_el_get_clientdata(EditLine *el);
/// The codes editor functions return (CC_* macros are plain ints but documented here).
int vsh_cc_refresh(void);
int vsh_cc_redisplay(void);
int vsh_cc_newline(void);
int vsh_cc_norm(void);
int vsh_cc_error(void);

// libedit: history variants.
int vsh_history_set_size(History *h, int size);
int vsh_history_enter(History *h, const char *line);
int vsh_history_clear(History *h);
int vsh_history_set_unique(History *h, int unique);

// sphinxbase: send all log output to a file (or discard it when path is NULL).
// Returns 0 on success, -1 when the file cannot be opened.
int vsh_ps_log_to_file(const char *path);

/// The real path (symlinks resolved) of the loaded shared object that defines the
/// symbol named `symbol`, for --version --verbose. Writes into `out`; returns 0 or -1.
int vsh_library_file(const char *symbol, char *out, size_t size);

// ---- ALSA (appended for VshAudio's AlsaPCM) ------------------------------------------------
// snd_lib_error_set_handler takes a variadic callback, which Swift cannot write. ALSA's
// default handler prints to stderr, which would garble the prompt; these keep the first
// message instead, per thread, so an open failure can quote ALSA's own words.

/// Installs vsh's ALSA error handler for the whole process (idempotent). From then on ALSA
/// prints nothing; each thread keeps the first message since its last vsh_alsa_clear_error.
void vsh_alsa_capture_errors(void);
/// Forgets the calling thread's kept ALSA message.
void vsh_alsa_clear_error(void);
/// The calling thread's first ALSA message since vsh_alsa_clear_error, or "" if none.
/// The text belongs to the thread and changes on its next clear; copy it before then.
const char *vsh_alsa_first_error(void);

/// The 39-value features (13 cepstra, their deltas and double deltas, cepstral mean
/// normalised over the whole utterance) PocketSphinx computes from `count` samples with the
/// front-end settings in `config` (a model's feat.params): `*frames` rows of 39 floats in
/// `*out`, which the caller frees. Returns 0, or -1 when the front end refused its settings.
int vsh_speech_features(cmd_ln_t *config, const int16_t *samples, size_t count, float **out, int *frames);

#endif
