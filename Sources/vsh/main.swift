import Glibc
import VshApp

// Past a file-size limit a write should fail with EFBIG, which vsh reports and recovers
// from, rather than kill vsh mid-recording (SIGXFSZ's default action).
signal(SIGXFSZ, SIG_IGN)
VshMain.start(Array(CommandLine.arguments.dropFirst()))
