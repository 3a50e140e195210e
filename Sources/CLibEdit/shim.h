// libedit's native API (el_*, history_*), not its readline emulation.
#include <stdio.h>
#include <histedit.h>
