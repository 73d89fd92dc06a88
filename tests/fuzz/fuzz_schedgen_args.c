/* SPDX-License-Identifier: ISC
 * Fuzz harness: schedgen's command line (firmware/sched/schedgen.c, schedgen_parse: every
 * option and value checked, nothing written, no schedule built). The input is the
 * arguments after "schedgen", one per line (at most 64); schedgen's messages go to stderr. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schedgen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { kMaxArgs = 64 };
    if (size > 4096) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *argv[kMaxArgs + 2];
    int argc = 0;
    argv[argc++] = "schedgen";
    for (char *p = text; argc <= kMaxArgs;) {
        char *nl = memchr(p, '\n', (size_t)(text + size - p));
        argv[argc++] = p;
        if (!nl) break;
        *nl = 0;
        p = nl + 1;
    }
    if (size == 0) argc = 1;
    argv[argc] = NULL;
    schedgen_opts o;
    (void)schedgen_parse(argc, argv, &o);
    schedgen_opts_free(&o);
    free(text);
    return 0;
}
