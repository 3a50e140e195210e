/*
 * Fault injection for ALSA capture, for tests only: preloaded into vsh
 * (LD_PRELOAD=libVshAlsaFaults.so), it stands between vsh and libasound's
 * snd_pcm_readi and snd_pcm_wait for capture streams, and makes the device fail
 * the way real hardware does, once FRAMES frames have been delivered:
 *
 *   VSH_ALSA_FAULT=overrun@FRAMES   one overrun: 100 ms of audio are dropped and the
 *                                   read returns -EPIPE, as when the reader fell behind
 *   VSH_ALSA_FAULT=stall@FRAMES     the device stops delivering: waits time out and
 *                                   reads return -EAGAIN from then on
 *   VSH_ALSA_FAULT=vanish@FRAMES    the device is unplugged: -ENODEV from then on
 *
 * Several, comma-separated, happen in turn: overrun@16000,vanish@64000.
 *
 *   VSH_ALSA_FRAMES=PATH            after every read, PATH holds the number of frames
 *                                   delivered so far (decimal), so a test can tell how
 *                                   much audio vsh had been handed when it killed it
 *
 * Playback streams, and calls libasound makes to itself, pass straight through.
 */
#define _GNU_SOURCE
#include <alsa/asoundlib.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum fault { NONE, OVERRUN, STALL, VANISH };

#define MAX_FAULTS 8
static enum fault kinds[MAX_FAULTS];
static long long fault_at[MAX_FAULTS];
static int fired[MAX_FAULTS];
static int fault_count = 0;
static long long delivered = 0;
static int frames_fd = -1;
static int configured = 0;
static __thread int inside = 0;

static void configure(void) {
    if (configured) return;
    configured = 1;
    const char *spec = getenv("VSH_ALSA_FAULT");
    while (spec && *spec && fault_count < MAX_FAULTS) {
        const char *end = strchr(spec, ',');
        size_t length = end ? (size_t)(end - spec) : strlen(spec);
        const char *at = memchr(spec, '@', length);
        size_t n = at ? (size_t)(at - spec) : length;
        enum fault kind = NONE;
        if (n == 7 && strncmp(spec, "overrun", n) == 0) kind = OVERRUN;
        else if (n == 5 && strncmp(spec, "stall", n) == 0) kind = STALL;
        else if (n == 6 && strncmp(spec, "vanish", n) == 0) kind = VANISH;
        else fprintf(stderr, "alsa-faults: unknown fault '%.*s'\n", (int)length, spec);
        if (kind != NONE) {
            kinds[fault_count] = kind;
            fault_at[fault_count] = at ? atoll(at + 1) : 0;
            fault_count++;
        }
        spec = end ? end + 1 : NULL;
    }
    const char *path = getenv("VSH_ALSA_FRAMES");
    if (path) frames_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
}

static void record_delivered(void) {
    if (frames_fd < 0) return;
    char text[32];
    int n = snprintf(text, sizeof text, "%lld\n", delivered);
    if (pwrite(frames_fd, text, (size_t)n, 0) == n) (void)ftruncate(frames_fd, n);
}

/* The fault in force for a read of `pcm` now: the latest one due that still acts (an
 * overrun acts once, a stall or an unplugged device from then on), else NONE. */
static enum fault faulting(snd_pcm_t *pcm) {
    if (inside || snd_pcm_stream(pcm) != SND_PCM_STREAM_CAPTURE) return NONE;
    for (int i = fault_count - 1; i >= 0; i--) {
        if (delivered < fault_at[i]) continue;
        if (kinds[i] == OVERRUN) {
            if (fired[i]) continue;
            fired[i] = 1;
        }
        return kinds[i];
    }
    return NONE;
}

snd_pcm_sframes_t snd_pcm_readi(snd_pcm_t *pcm, void *buffer, snd_pcm_uframes_t size) {
    static snd_pcm_sframes_t (*real)(snd_pcm_t *, void *, snd_pcm_uframes_t);
    if (!real) real = (snd_pcm_sframes_t (*)(snd_pcm_t *, void *, snd_pcm_uframes_t))dlsym(RTLD_NEXT, "snd_pcm_readi");
    configure();
    switch (faulting(pcm)) {
    case OVERRUN: {
        /* The audio that arrived while nobody read is gone: 100 ms of it. */
        unsigned int rate = 0;
        snd_pcm_hw_params_t *hw;
        snd_pcm_hw_params_malloc(&hw);
        if (snd_pcm_hw_params_current(pcm, hw) == 0) snd_pcm_hw_params_get_rate(hw, &rate, NULL);
        snd_pcm_hw_params_free(hw);
        size_t lost = rate ? rate / 10 : 1600;
        int16_t *scratch = calloc(lost * 8, sizeof(int16_t));
        inside = 1;
        if (scratch) real(pcm, scratch, lost);
        inside = 0;
        free(scratch);
        return -EPIPE;
    }
    case STALL:
        return -EAGAIN;
    case VANISH:
        return -ENODEV;
    case NONE:
        break;
    }
    inside++;
    snd_pcm_sframes_t got = real(pcm, buffer, size);
    inside--;
    if (!inside && got > 0 && snd_pcm_stream(pcm) == SND_PCM_STREAM_CAPTURE) {
        delivered += got;
        record_delivered();
    }
    return got;
}

int snd_pcm_wait(snd_pcm_t *pcm, int timeout) {
    static int (*real)(snd_pcm_t *, int);
    if (!real) real = (int (*)(snd_pcm_t *, int))dlsym(RTLD_NEXT, "snd_pcm_wait");
    configure();
    /* A wait does not use up an overrun: only a read finds it. */
    int stalled = 0, gone = 0;
    if (!inside && snd_pcm_stream(pcm) == SND_PCM_STREAM_CAPTURE) {
        for (int i = fault_count - 1; i >= 0; i--) {
            if (delivered < fault_at[i] || kinds[i] == OVERRUN) continue;
            stalled = kinds[i] == STALL;
            gone = kinds[i] == VANISH;
            break;
        }
    }
    if (stalled) {
        usleep((useconds_t)(timeout < 0 ? 1000 : timeout) * 1000);
        return 0;
    }
    if (gone) return -ENODEV;
    return real(pcm, timeout);
}
