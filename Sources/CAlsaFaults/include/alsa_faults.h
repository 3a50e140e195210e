/* Nothing to import: this library only replaces ALSA functions when preloaded. */
