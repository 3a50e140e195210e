# vsh: `make run` starts it, `make test` runs every test, `make check` the fast ones,
# `make bench` measures (and appends its figures to bench/RESULTS.md).
# Each first installs the Debian packages that are missing (apt-get, non-interactive).

# Libraries vsh links, the speech model, the tools `train` adapts the model with
# (sphinxtrain, sphinxbase-utils' sphinx_fe, pocketsphinx's mdef converter), and what the
# tests and benchmarks drive.
PACKAGES := libedit-dev libasound2-dev libpocketsphinx-dev libspeexdsp-dev pocketsphinx-en-us libsndfile1-dev \
            sphinxtrain sphinxbase-utils pocketsphinx \
            alsa-utils espeak-ng flite sox tmux python3-numpy util-linux groff-base zsh fish
# The benchmarks also run the stock recogniser (pocketsphinx_continuous) as a baseline.
BENCH_PACKAGES := pocketsphinx python3-numpy

SWIFT ?= swift
RELEASE_BIN := .build/release/vsh
DEBUG_BIN := .build/debug/vsh

.PHONY: run test check bench build release deps bench-deps install man clean

run: deps release
	$(RELEASE_BIN)

test: deps
	./scripts/check-imports
	./scripts/module-graph --check ARCHITECTURE.md
	$(SWIFT) build --build-tests
	VSH_BIN=$(CURDIR)/$(DEBUG_BIN) $(SWIFT) test --skip-build

# The fast tests, for the edit-build-test loop (under a minute once built): every target but
# the end-to-end one (the built binary through a pty, tmux and files; the soak) and the fuzzer.
check: deps
	./scripts/check-imports
	./scripts/module-graph --check ARCHITECTURE.md
	$(SWIFT) build --build-tests
	VSH_BIN=$(CURDIR)/$(DEBUG_BIN) $(SWIFT) test --skip-build --skip VshEndToEndTests --skip VshFuzzTests

# Each benchmark writes its headline figures to .build/bench-results/ (bench/lib/results.py);
# the last step prints them as one table and appends it to bench/RESULTS.md. A full run
# takes hours: one that stops resumes where it stopped when run again on the same commit
# with a clean tree (bench/step.py); `make bench FRESH=1` starts over.
STEP := python3 bench/step.py run
bench: export VSH_BIN = $(CURDIR)/$(RELEASE_BIN)
bench: deps bench-deps release
	python3 bench/step.py begin
	$(STEP) shell python3 bench/shell.py
	$(STEP) voice python3 bench/voice.py
	$(STEP) real_speech python3 bench/real_speech.py
	$(STEP) real_speech-sc50 python3 bench/real_speech.py --only sc --sc-grammar bench/real/speech-commands-50.gram \
		--tools vsh,continuous --label sc50 --compare vsh
	$(STEP) train python3 bench/train.py --other-people
	$(STEP) latency python3 bench/latency.py
	$(STEP) invariance python3 bench/invariance.py --clips 150
	$(STEP) store python3 bench/store.py
	$(STEP) record python3 bench/record.py
	$(STEP) stop python3 bench/stop.py
	$(STEP) dictation_final python3 bench/dictation_final.py
	$(STEP) commands_load python3 bench/commands_load.py --voice
	$(STEP) prompt python3 bench/prompt.py
	$(STEP) attention python3 bench/attention.py
	# After train (the speaker check off, the default): adapted on one fsdd speaker's takes
	# (bench/train.py made them), the streams of the fold that speaker is not in.
	$(STEP) attention-fold0-trained python3 bench/attention.py --fold 0 --no-stock --no-wake --trained .build/bench-train/jackson-takes
	$(STEP) attention-fold1-trained python3 bench/attention.py --fold 1 --no-stock --no-wake --trained .build/bench-train/george-takes
	$(STEP) gate python3 bench/gate.py
	$(STEP) soak python3 bench/soak.py
	$(STEP) faults python3 bench/faults.py
	$(STEP) device_faults python3 bench/device_faults.py
	$(STEP) fuzz ./bench/fuzz.sh
	python3 bench/summary.py
	python3 bench/step.py end

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

deps:
	@command -v $(SWIFT) >/dev/null || { echo "vsh needs the Swift 6 toolchain (swift.org/install) on PATH" >&2; exit 1; }
	@./scripts/install-deps $(PACKAGES)

bench-deps:
	@./scripts/install-deps $(BENCH_PACKAGES)

# The manual page and the shell completion scripts, made from the same definitions as
# `vsh --help` (Sources/VshApp/Manual.swift; swift-argument-parser's completion generator,
# whose scripts ask vsh for the words after it: Sources/VshApp/ShellCompletion.swift).
MAN := .build/man/vsh.1
man: release
	mkdir -p .build/man .build/completions
	$(RELEASE_BIN) --generate-manual > $(MAN)
	$(RELEASE_BIN) --generate-completion-script bash > .build/completions/vsh.bash
	$(RELEASE_BIN) --generate-completion-script zsh > .build/completions/_vsh
	$(RELEASE_BIN) --generate-completion-script fish > .build/completions/vsh.fish

# Installs the binary, the manual page, completions and the shipped config and commands
# under PREFIX.
PREFIX ?= /usr/local
install: release man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/vsh/config $(DESTDIR)$(PREFIX)/share/vsh/commands \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/vsh
	install -m 644 $(MAN) $(DESTDIR)$(PREFIX)/share/man/man1/vsh.1
	install -m 644 .build/completions/vsh.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/vsh
	install -m 644 .build/completions/_vsh $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_vsh
	install -m 644 .build/completions/vsh.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/vsh.fish
	install -m 644 config/vsh.toml $(DESTDIR)$(PREFIX)/share/vsh/config/
	cp -R commands/. $(DESTDIR)$(PREFIX)/share/vsh/commands/

clean:
	rm -rf .build
