/* SPDX-License-Identifier: ISC
 * A main for the fuzz harnesses without libFuzzer (tests/fuzz/test_fuzz_regressions.sh):
 * runs LLVMFuzzerTestOneInput once on every file named, or every file in a folder named,
 * and prints "replayed N inputs". A crash or sanitizer report stops it with a non-zero
 * status; the input is named on stderr before it runs. */
#define _DEFAULT_SOURCE   /* scandir, alphasort */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot read %s\n", path); return 1; }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) { uint8_t *g = realloc(buf, cap *= 2); if (!g) { free(buf); buf = 0; } else buf = g; }
    }
    fclose(f);
    if (!buf) { fprintf(stderr, "replay: out of memory on %s\n", path); return 1; }
    fprintf(stderr, "replay: %s\n", path);
    /* an exact-size copy, so that a read one past the input is caught */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) { free(buf); return 1; }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    replayed++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) { fprintf(stderr, "replay: no such file or folder %s\n", path); return 1; }
    if (!S_ISDIR(st.st_mode)) return run_file(path);
    struct dirent **names;
    int count = scandir(path, &names, NULL, alphasort);
    if (count < 0) { fprintf(stderr, "replay: cannot list %s\n", path); return 1; }
    int rc = 0;
    for (int i = 0; i < count; i++) {
        if (names[i]->d_name[0] != '.' && !rc) {
            char child[4096];
            snprintf(child, sizeof child, "%s/%s", path, names[i]->d_name);
            rc = run_path(child);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (run_path(argv[i])) return 1;
    printf("replayed %lu inputs\n", replayed);
    return 0;
}
