"""What the benchmarks in bench/ share; each benchmark is a short script over it.

    env       where things are: the vsh binary, the evaluation data, an isolated HOME
    audio     16 kHz WAV in and out, sox, where synthesized speech ends
    data      the evaluation sets: the spoken-command corpus and the out-of-grammar set
              (generated once), librivox, Speech Commands, fsdd and cards (padded once),
              speaker folds
    vsh       running `vsh listen` and stock pocketsphinx_continuous on a file, and the
              phrase a command is compared as
    terminal  vsh at a pseudo-terminal, stock fed audio in real time, CPU of a process
    score     tables, rows, percentages, medians, word error
    results   each benchmark's headline figures, for the table `make bench` ends with
              (bench/summary.py prints it and appends it to bench/RESULTS.md)

A benchmark imports from here only, never from another benchmark.
"""
