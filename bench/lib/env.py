"""Where the benchmarks find vsh, the evaluation data and a HOME of their own."""
import os
import shutil
import sys
import tempfile

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)
# The binary measured: $VSH_BIN, else this tree's release build.
VSH = os.environ.get("VSH_BIN", os.path.join(ROOT, ".build/release/vsh"))
# The evaluation data (../shared/eval beside the checkout, or $VSH_EVAL): real and
# synthetic speech the voice benchmarks measure on. Tests never need it.
EVAL_DIR = os.environ.get("VSH_EVAL") or os.path.normpath(os.path.join(ROOT, "..", "shared", "eval"))
# The grammars the benchmarks hand to both recognisers.
COMMANDS_GRAMMAR = os.path.join(BENCH, "commands.gram")
GRAMMARS = os.path.join(BENCH, "real")


def log(message):
    print(message, file=sys.stderr, flush=True)


def require_eval(path):
    """Stops the benchmark with status 2 and a clear message when the data is missing."""
    if not os.path.exists(os.path.join(path, "make-commands-corpus")):
        sys.stderr.write(f"no evaluation data in {path}: put shared/eval beside the checkout, "
                         "pass --eval DIR or set VSH_EVAL\n")
        sys.exit(2)
    return path


def isolated_env(home):
    """The environment with HOME and the XDG directories under `home`, none of the user's
    VSH_STORE or VSH_CONFIG, and this tree's shipped config/ and commands/ (VSH_SHARE): a
    vsh binary finds them beside itself only when it lies in the tree's .build, and one
    built or copied elsewhere (--vsh) would otherwise run without the keyword commands."""
    env = dict(os.environ)
    for k in ("VSH_STORE", "VSH_CONFIG"):
        env.pop(k, None)
    env.update(HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_STATE_HOME=home + "/state",
               XDG_DATA_HOME=home + "/data", TERM="xterm", VSH_SHARE=ROOT)
    return env


def voice_config(home, name, settings):
    """A configuration directory home/name (for --config or VSH_CONFIG) whose vsh.toml
    has `settings` (lines such as "early_end_ms = 0") in its [voice] section."""
    directory = os.path.join(home, name)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "vsh.toml"), "w") as f:
        f.write(f"[voice]\n{settings}\n")
    return directory


def snapshot_home(prefix, vsh_config=None):
    """A new isolated home whose vsh reads a snapshot of this tree's shipped config/ and
    commands/ (taken now, so a run stays consistent while someone edits them), and
    `vsh_config` as the user's vsh.toml. Returns (home, env)."""
    home = tempfile.mkdtemp(prefix=prefix)
    env = isolated_env(home)
    for d in ("config", "commands"):
        if os.path.isdir(os.path.join(ROOT, d)):
            shutil.copytree(os.path.join(ROOT, d), os.path.join(home, "share", d))
    env["VSH_SHARE"] = os.path.join(home, "share")
    if vsh_config:
        os.makedirs(os.path.join(home, "config", "vsh"))
        shutil.copy(vsh_config, os.path.join(home, "config", "vsh", "vsh.toml"))
    return home, env
