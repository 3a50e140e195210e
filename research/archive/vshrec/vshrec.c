/*
 * vshrec.c -- prototype of vsh's command recogniser on PocketSphinx 5prealpha (sphinxbase API).
 *
 * Processes each WAV of a manifest as a live stream (chunks in order), segments utterances,
 * decodes each segment against a JSGF grammar and computes an out-of-grammar confidence by
 * comparing the grammar path score with a free phone loop (allphone search) on the same audio.
 *
 * Build: gcc -O2 -o vshrec vshrec.c $(pkg-config --cflags --libs pocketsphinx sphinxbase speexdsp sndfile) -lm
 * Usage: vshrec MANIFEST BASEDIR OUT.tsv [options] [-- pocketsphinx args...]
 *   -seg psvad|energy   segmentation: pocketsphinx's VAD while decoding live (like
 *                       pocketsphinx_continuous) or our own energy endpointer (default energy)
 *   -redecode 0|1       psvad only: re-decode the buffered segment (batch) instead of the live hyp
 *   -norm none|peak|rms per-segment gain normalisation before decoding (default rms; no effect)
 *   -denoise 0|1|2      SpeexDSP denoise on the stream: off / always / only for segments whose
 *                       SNR < -snr dB (default 0; recipe: 2 with -snr 24)
 *   -sagc 0|1           SpeexDSP AGC on the stream (default 0)
 *   -conf none|phone|garb|lm   confidence: phone = 7-feature logistic using the CI allphone
 *                       search (recipe; needs -- -allphone_ci yes); garb = margin vs a phone-word
 *                       FSG (needs -dict vshg.dict); lm = general LM decoder (slow)
 *   -chunk N            psvad: samples per chunk fed (default 512 = 32 ms)
 *   -hang N -thr DB -preroll N -postroll N   energy endpointer (10 ms frames; recipe 30/4/40/40)
 *   -debug 0|1          debug=1 adds feature columns (m, am, wfr, nph, ...) used by conf2.py
 *   -gram FILE  -dict FILE  -hmm DIR  -lm FILE  -phonelm FILE
 * Recipe: vshrec M B OUT -preroll 40 -postroll 40 -thr 4 -denoise 2 -snr 24 -conf phone \
 *           -- -topn 16 -allphone_ci yes
 * Output columns: id cond expected hyps(' | ') confs('|') nframes(',') debug
 */
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
#include <sphinxbase/ckd_alloc.h>
#include <speex/speex_preprocess.h>
#include <sndfile.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#define MODEL "/usr/share/pocketsphinx/model/en-us"
#define FRAME 160 /* 10 ms at 16 kHz */

static const char *opt_seg = "energy", *opt_norm = "rms", *opt_conf = "phone";
static const char *opt_gram = "vsh.gram", *opt_dict = "vsh.dict", *opt_hmm = MODEL "/en-us";
static const char *opt_lm = MODEL "/en-us.lm.bin", *opt_phonelm = MODEL "/en-us-phone.lm.bin";
static const char *opt_garbgram = "garbage.gram";
static const char *opt_lmdict = MODEL "/cmudict-en-us.dict";
static double opt_snr = 30.0; /* -denoise 2: use denoised audio when segment SNR < this */
static int opt_debug = 1;
static double cur_snr = 40; /* SNR of the segment being decoded (set by the endpointer) */
static int opt_denoise = 0, opt_sagc = 0, opt_chunk = 512, opt_hang = 30, opt_redecode = 1;
static double opt_thr = 10.0;
static int opt_preroll = 25, opt_postroll = 20; /* frames kept before/after detected speech */

static ps_decoder_t *ps;      /* grammar ("cmd") + phone loop ("phone") searches */
static ps_decoder_t *ps_lm;   /* general LM decoder (only with -conf lm) */
static double decode_wall_max = 0, decode_wall_sum = 0;
static int n_segments = 0;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static double cpu(void) { struct rusage r; getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_stime.tv_sec + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6; }

static int16 *read_wav(const char *path, long *n) {
    SF_INFO info = {0};
    SNDFILE *f = sf_open(path, SFM_READ, &info);
    if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(1); }
    int16 *buf = malloc(sizeof(int16) * info.frames * info.channels);
    *n = sf_readf_short(f, buf, info.frames); /* corpus is mono 16 kHz */
    sf_close(f);
    return buf;
}

/* Sum of acoustic scores over the best path's segments (no grammar/LM, no penalties). */
static int32 path_ascr(ps_decoder_t *d) {
    int32 total = 0, ascr, lscr, lback;
    for (ps_seg_t *s = ps_seg_iter(d); s; s = ps_seg_next(s)) { ps_seg_prob(s, &ascr, &lscr, &lback); total += ascr; }
    return total;
}

/* Decode one buffered utterance with the current search; returns hyp (owned by ps). */
static const char *decode(ps_decoder_t *d, const char *search, int16 *x, long n, int32 *score, int *nfr) {
    if (search) ps_set_search(d, search);
    ps_start_utt(d);
    ps_process_raw(d, x, n, FALSE, TRUE); /* full_utt=TRUE: whole segment at once */
    ps_end_utt(d);
    *nfr = ps_get_n_frames(d);
    const char *h = ps_get_hyp(d, score);
    return h ? h : "";
}

static int in_grammar_vocab(const char *w) {
    static const char *v[] = {"record","start","recording","stop","save","transcript","list","transcripts",
        "delete","play","show","quality","set","low","medium","high","help","listen","on","off","history",
        "exit","code","count","back","reset","done","zero","oh","one","two","three","four","five","six",
        "seven","eight","nine","ten","eleven","twelve","thirteen","fourteen","fifteen","sixteen",
        "seventeen","eighteen","nineteen","twenty",NULL};
    for (int i = 0; v[i]; i++) if (!strcmp(v[i], w)) return 1;
    return 0;
}

/* Process one segment: normalise, decode with grammar, confidence. Appends to out buffers. */
static void process_segment(int16 *x, long n, char *hyps, char *confs, char *frs, char *dbg) {
    double t0 = now();
    int16 *y = malloc(n * sizeof(int16));
    memcpy(y, x, n * sizeof(int16));
    if (strcmp(opt_norm, "none")) {
        double peak = 1, ss = 0; long i;
        for (i = 0; i < n; i++) { double a = fabs((double)y[i]); if (a > peak) peak = a; ss += (double)y[i] * y[i]; }
        double rms = sqrt(ss / n) + 1e-9;
        double g = !strcmp(opt_norm, "peak") ? 16000.0 / peak : 3000.0 / rms;
        if (g * peak > 32000) g = 32000 / peak;  /* never clip */
        if (g > 100) g = 100;                     /* at most +40 dB */
        for (i = 0; i < n; i++) y[i] = (int16)lrint(y[i] * g);
    }
    int32 sg = 0, sp = 0, sl = 0; int nfr = 0, nfp = 0, nfl = 0;
    const char *h = decode(ps, "cmd", y, n, &sg, &nfr);
    char hyp[512]; snprintf(hyp, sizeof hyp, "%s", h);
    int32 post = ps_get_prob(ps);   /* posterior of best path; needs -bestpath/lattice */
    int32 ag = path_ascr(ps), ap = 0;
    /* features of the grammar path (must be read before switching search):
       wfr = frames inside real words (not <sil>, <s>, </s>, [NOISE]...), nph = phones in hyp */
    int wfr = 0, nph = 0;
    for (ps_seg_t *s = ps_seg_iter(ps); s; s = ps_seg_next(s)) {
        const char *w = ps_seg_word(s); int sf, ef; ps_seg_frames(s, &sf, &ef);
        if (w[0] != '<' && w[0] != '[') wfr += ef - sf + 1;
    }
    { char t[512]; snprintf(t, sizeof t, "%s", hyp);
      for (char *w = strtok(t, " "); w; w = strtok(NULL, " ")) { char *p = ps_lookup_word(ps, w);
          if (p) { nph++; for (char *q = p; *q; q++) if (*q == ' ') nph++; ckd_free(p); } } }
    /* garbage loop in the grammar: a hyp containing a phone-word ("zzaa", "zzk", ...) is rejected */
    int garbage = 0;
    { char t[512]; snprintf(t, sizeof t, "%s", hyp);
      for (char *w = strtok(t, " "); w; w = strtok(NULL, " ")) if (!strncmp(w, "zz", 2)) garbage = 1; }
    char ghyp[512] = ""; if (garbage) { snprintf(ghyp, sizeof ghyp, "%s", hyp); hyp[0] = 0; }
    double conf = 1.0, margin = 0;
    char lmhyp[512] = "";
    if (!strcmp(opt_conf, "phone") || !strcmp(opt_conf, "both")) {
        decode(ps, "phone", y, n, &sp, &nfp);
        ap = path_ascr(ps);
        margin = (double)(sg - sp) / (nfr > 0 ? nfr : 1);  /* logmath units (base 1.0001) per frame */
        conf = 1.0 / (1.0 + exp(-(margin + 300.0) / 100.0)); /* map margin to 0..1 */
    }
    if (!strcmp(opt_conf, "garb")) {
        /* same FSG machinery, grammar = free loop of single-phone words: scores comparable */
        decode(ps, "garb", y, n, &sp, &nfp);
        ap = path_ascr(ps);
        margin = (double)(sg - sp) / (nfr > 0 ? nfr : 1);
        conf = 1.0 / (1.0 + exp(-(margin + 300.0) / 100.0));
    }
    if (!strcmp(opt_conf, "lm") || !strcmp(opt_conf, "both")) {
        const char *lh = decode(ps_lm, NULL, y, n, &sl, &nfl);
        snprintf(lmhyp, sizeof lmhyp, "%s", lh);
    }
    if (!strcmp(opt_conf, "phone") && nfr > 0) {
        /* 7-feature logistic confidence; mu/sd/w fitted by conf2.py (run ph3, synthetic voices) */
        static const double mu[7] = {1.19, -19.48, -27.87, 10.13, 0.54, 5.05, 36.64};
        static const double sd[7] = {8.51, 11.64, 9.87, 3.1, 0.15, 0.3, 22.25};
        static const double w[7] = {0.61, 1.60, 1.90, -0.44, 1.45, -1.62, -0.41}, b = -0.01;
        double x[7] = {margin, (double)(ag - ap) / nfr, (double)sg / nfr, (double)wfr / (nph ? nph : 1),
                       (double)wfr / nfr, log((double)nfr), cur_snr};
        double z = b;
        for (int i = 0; i < 7; i++) z += w[i] * (x[i] - mu[i]) / sd[i];
        conf = 1.0 / (1.0 + exp(-z));
    }
    double dt = now() - t0;
    if (dt > decode_wall_max) decode_wall_max = dt;
    decode_wall_sum += dt; n_segments++;
    if (*hyp) {
        if (*hyps) { strcat(hyps, " | "); strcat(confs, "|"); strcat(frs, ","); }
        strcat(hyps, hyp);
        sprintf(confs + strlen(confs), "%.4f", conf);
        sprintf(frs + strlen(frs), "%d", nfr);
    }
    /* debug: grammar score, phone score, lm score per frame, lm hyp, in-vocab fraction */
    int nw = 0, niv = 0; char tmp[512]; snprintf(tmp, sizeof tmp, "%s", lmhyp);
    for (char *w = strtok(tmp, " "); w; w = strtok(NULL, " ")) { nw++; niv += in_grammar_vocab(w); }
    sprintf(dbg + strlen(dbg), "wfr=%d nph=%d ", wfr, nph);
    sprintf(dbg + strlen(dbg), "[%s] m=%.1f am=%.1f garb=[%s] lmm=%.1f post=%d nfr=%d lm=[%s] iv=%d/%d",
            hyp, margin, nfr ? (double)(ag - ap) / nfr : 0, ghyp, nfr ? (double)(sg - sl) / nfr : 0, post, nfr, lmhyp, niv, nw);
    free(y);
}

/* Stream one file; segments with our energy endpointer or pocketsphinx's VAD. */
static void process_file(int16 *x, long n, char *hyps, char *confs, char *frs, char *dbg) {
    SpeexPreprocessState *sp = NULL;
    int16 *xd = x; /* audio the decoder sees; -denoise 2 keeps both and picks per segment */
    if (opt_denoise == 2) { xd = malloc(n * sizeof(int16)); memcpy(xd, x, n * sizeof(int16)); }
    if (opt_denoise || opt_sagc) {
        sp = speex_preprocess_state_init(FRAME, 16000);
        int on = 1, off = 0; float lvl = 8000;
        speex_preprocess_ctl(sp, SPEEX_PREPROCESS_SET_DENOISE, opt_denoise ? &on : &off);
        speex_preprocess_ctl(sp, SPEEX_PREPROCESS_SET_AGC, opt_sagc ? &on : &off);
        if (opt_sagc) speex_preprocess_ctl(sp, SPEEX_PREPROCESS_SET_AGC_LEVEL, &lvl);
        /* SpeexDSP works in place on FRAME-sized blocks, causal: same as live */
        for (long i = 0; i + FRAME <= n; i += FRAME) speex_preprocess_run(sp, xd + i);
        speex_preprocess_state_destroy(sp);
    }
    if (!strcmp(opt_seg, "psvad")) {
        x = xd;
        /* Like pocketsphinx_continuous: feed chunks to the live decoder, use ps_get_in_speech. */
        ps_set_search(ps, "cmd");
        ps_start_utt(ps);
        int in_speech = 0; long start = 0; long pre = (long)(cmd_ln_int32_r(ps_get_config(ps), "-vad_prespeech") +
                                                            cmd_ln_int32_r(ps_get_config(ps), "-vad_startspeech")) * FRAME;
        for (long i = 0; i < n; i += opt_chunk) {
            long m = n - i < opt_chunk ? n - i : opt_chunk;
            ps_process_raw(ps, x + i, m, FALSE, FALSE);
            int s = ps_get_in_speech(ps);
            if (s && !in_speech) { in_speech = 1; start = i + m - pre - opt_chunk; if (start < 0) start = 0; }
            if ((!s && in_speech) || (in_speech && i + m >= n)) {
                ps_end_utt(ps);
                int32 sc; const char *h = ps_get_hyp(ps, &sc);
                char live[512]; snprintf(live, sizeof live, "%s", h ? h : "");
                if (opt_redecode) process_segment(x + start, i + m - start, hyps, confs, frs, dbg);
                else if (*live) { if (*hyps) { strcat(hyps, " | "); strcat(confs, "|"); } strcat(hyps, live); strcat(confs, "1"); }
                in_speech = 0;
                ps_set_search(ps, "cmd");
                ps_start_utt(ps);
            }
        }
        ps_end_utt(ps);
        return;
    }
    /* Own endpointer: 10 ms frames, pre-emphasised log energy vs tracked noise floor. */
    long nf = n / FRAME; double floor_db = -1, prev = 0, seg_max = 0;
    int in_speech = 0, run = 0, quiet = 0; long seg_start = 0, last_speech = 0;
    for (long f = 0; f < nf; f++) {
        double e = 0;
        for (int k = 0; k < FRAME; k++) { double v = x[f * FRAME + k]; double d = v - 0.97 * prev; prev = v; e += d * d; }
        double db = 10 * log10(e / FRAME + 1.0);
        if (floor_db < 0) floor_db = db;
        if (in_speech && db > seg_max) seg_max = db;
        int sp_fr = db > floor_db + opt_thr;
        if (!in_speech) {  /* track the floor: follow down fast, up slowly */
            floor_db += (db < floor_db ? 0.2 : 0.01) * (db - floor_db);
            run = sp_fr ? run + 1 : 0;
            if (run >= 5) { in_speech = 1; seg_max = db; quiet = 0; last_speech = f; seg_start = f - run - opt_preroll; if (seg_start < 0) seg_start = 0; }
        } else {
            if (sp_fr) { last_speech = f; quiet = 0; } else quiet++;
            if (quiet >= opt_hang || f == nf - 1) {
                long end = last_speech + opt_postroll; if (end > nf) end = nf;
                if (last_speech - seg_start - opt_preroll >= 10) {
                    double snr = seg_max - floor_db; cur_snr = snr;
                    int16 *src = (opt_denoise == 2 && snr >= opt_snr) ? x : xd;
                    sprintf(dbg + strlen(dbg), "%ssnr=%.0f%s ", *dbg ? " ;; " : "", snr, src == x ? "" : "(dn)");
                    process_segment(src + seg_start * FRAME, (end - seg_start) * FRAME, hyps, confs, frs, dbg);
                }
                in_speech = 0; run = 0;
            }
        }
    }
    if (xd != x) free(xd);
}

static void usage(void) { fprintf(stderr, "see header of vshrec.c\n"); exit(2); }

int main(int argc, char **argv) {
    int i; char *pos[3]; int np = 0;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) { i++; break; }
        if (argv[i][0] != '-' ) { if (np < 3) pos[np++] = argv[i]; continue; }
        if (i + 1 >= argc) usage();
        const char *k = argv[i], *v = argv[++i];
        if (!strcmp(k, "-seg")) opt_seg = v; else if (!strcmp(k, "-norm")) opt_norm = v;
        else if (!strcmp(k, "-conf")) opt_conf = v; else if (!strcmp(k, "-gram")) opt_gram = v;
        else if (!strcmp(k, "-dict")) opt_dict = v; else if (!strcmp(k, "-hmm")) opt_hmm = v;
        else if (!strcmp(k, "-lm")) opt_lm = v; else if (!strcmp(k, "-phonelm")) opt_phonelm = v;
        else if (!strcmp(k, "-denoise")) opt_denoise = atoi(v); else if (!strcmp(k, "-sagc")) opt_sagc = atoi(v);
        else if (!strcmp(k, "-chunk")) opt_chunk = atoi(v); else if (!strcmp(k, "-hang")) opt_hang = atoi(v);
        else if (!strcmp(k, "-thr")) opt_thr = atof(v); else if (!strcmp(k, "-redecode")) opt_redecode = atoi(v);
        else if (!strcmp(k, "-snr")) opt_snr = atof(v);
        else if (!strcmp(k, "-debug")) opt_debug = atoi(v);
        else if (!strcmp(k, "-preroll")) opt_preroll = atoi(v); else if (!strcmp(k, "-postroll")) opt_postroll = atoi(v);
        else usage();
    }
    if (np != 3) usage();
    /* pocketsphinx config: defaults, then pass-through args after "--" override */
    char *pargs[128]; int pn = 0;
    char *defs[] = {"vshrec", "-hmm", (char *)opt_hmm, "-dict", (char *)opt_dict, "-logfn", "/dev/null"};
    for (int j = 0; j < 7; j++) pargs[pn++] = defs[j];
    for (; i < argc && pn < 126; i++) pargs[pn++] = argv[i];
    err_set_logfp(NULL);  /* silence logging before anything is parsed */
    double c0 = cpu(), w0 = now();
    cmd_ln_t *config = cmd_ln_parse_r(NULL, ps_args(), pn, pargs, TRUE);
    if (!config) { fprintf(stderr, "bad pocketsphinx args\n"); return 1; }
    ps = ps_init(config);
    if (!ps) { fprintf(stderr, "ps_init failed\n"); return 1; }
    if (ps_set_jsgf_file(ps, "cmd", opt_gram) < 0) { fprintf(stderr, "grammar failed\n"); return 1; }
    if (!strcmp(opt_conf, "phone") || !strcmp(opt_conf, "both"))
        if (ps_set_allphone_file(ps, "phone", opt_phonelm) < 0) { fprintf(stderr, "allphone failed\n"); return 1; }
    if (!strcmp(opt_conf, "garb") && ps_set_jsgf_file(ps, "garb", opt_garbgram) < 0) { fprintf(stderr, "garbage grammar failed\n"); return 1; }
    ps_set_search(ps, "cmd");
    double load_cmd = now() - w0;
    if (!strcmp(opt_conf, "lm") || !strcmp(opt_conf, "both")) {
        char *largs[] = {"vshrec", "-hmm", (char *)opt_hmm, "-dict", (char *)opt_lmdict, "-lm", (char *)opt_lm, "-logfn", "/dev/null"};
        char *all[160]; int an = 0;
        for (int j = 0; j < 9; j++) all[an++] = largs[j];
        for (int j = 7; j < pn; j++) all[an++] = pargs[j];  /* same decoder options */
        cmd_ln_t *c2 = cmd_ln_parse_r(NULL, ps_args(), an, all, TRUE);
        ps_lm = ps_init(c2);
    }
    double load_all = now() - w0, cpu_load = cpu() - c0;

    FILE *man = fopen(pos[0], "r"), *out = fopen(pos[2], "w");
    char line[4096];
    if (!man || !out) { fprintf(stderr, "cannot open manifest/out\n"); return 1; }
    fgets(line, sizeof line, man); /* header */
    while (fgets(line, sizeof line, man)) {
        line[strcspn(line, "\n")] = 0;
        char *id = strtok(line, "\t"), *path = strtok(NULL, "\t"), *cond = strtok(NULL, "\t"), *exp = strtok(NULL, "\t");
        if (!exp) exp = "";
        char full[2048];
        if (path[0] == '/') snprintf(full, sizeof full, "%s", path); else snprintf(full, sizeof full, "%s/%s", pos[1], path);
        long n; int16 *x = read_wav(full, &n);
        static char hyps[8192], confs[2048], frs[2048], dbg[16384];
        hyps[0] = confs[0] = frs[0] = dbg[0] = 0;
        process_file(x, n, hyps, confs, frs, dbg);
        fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", id, cond, exp, hyps, confs, frs, dbg);
        free(x);
    }
    fclose(out);
    fprintf(stderr, "load_wall_cmd=%.3f load_wall_all=%.3f load_cpu=%.3f total_cpu=%.2f segments=%d decode_wall_mean=%.4f decode_wall_max=%.4f\n",
            load_cmd, load_all, cpu_load, cpu() - c0, n_segments, n_segments ? decode_wall_sum / n_segments : 0, decode_wall_max);
    ps_free(ps);
    if (ps_lm) ps_free(ps_lm);
    return 0;
}
