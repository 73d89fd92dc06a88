/* SPDX-License-Identifier: ISC */
/* board-image: writes the flash image a board's boot ROM loads (boards/boot/board_image.h)
 * from a firmware ELF, for one node of a machine; or checks an image.
 *
 *   board-image [options] -o IMAGE FIRMWARE.elf
 *   board-image --check IMAGE [--slot N]
 *
 * Options (the board flow passes config.mk's values):
 *   --coord X,Y[,Z]     this board's node (default 0,0)
 *   --shape XxY[xZ]     the machine (default 1x1); 3 sizes make it 3-D
 *   --torus | --mesh    (default mesh)
 *   --ram-base A --ram-bytes N   the board's RAM (default 0x80000000, 131072)
 *   --slot N            the flash slot's size in bytes (default 131072)
 *   --set FIELD=VALUE   overwrite a header field after building (magic, version,
 *                       image_bytes, records, entry, coord, shape, ram_bytes,
 *                       payload_crc), the header CRC recomputed: for tests of the boot ROM
 *
 * A program of the application kit (kit/program.mk) carries every node's tables in its ELF
 * (section .rvmesh_package, firmware/sched/sched_table.h) and reserves their place in RAM
 * (the symbol rvmesh_tables). The image then gets one more record: this node's own area,
 * at rvmesh_tables, as mesh-sim writes it before reset; the package is checked first (the
 * shape it was built for against --shape/--torus, every area's and table's checksum).
 *
 * Host tool (C11; of the node code only the table format's checks, sched_table.c).
 * Refuses, with a message and exit status 1, and writes nothing: an ELF that is not RV32
 * little-endian executable, a loadable segment outside the RAM or over the boot ROM's
 * stack, an image larger than the slot, a node outside the shape, a program whose tables
 * were built for another shape or are damaged. The image is written to IMAGE.tmp and renamed, so a failure never leaves a
 * half-written image behind. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../boot/board_image.h"
#include "sched_table.h"

#define MAX_IMAGE (16u << 20)

static const char *prog = "board-image";

__attribute__((noreturn, format(printf, 1, 2))) static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    while (n--) {
        crc ^= *p++;
        for (int i = 0; i < 8; i++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return crc;
}

static uint32_t crc32(const uint8_t *p, size_t n)
{
    return crc32_update(0xffffffffu, p, n) ^ 0xffffffffu;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open %s: %s", path, strerror(errno));
    uint8_t *buf;
    size_t cap = 1u << 16, n = 0;
    buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            if (cap >= (64u << 20))
                die("%s is larger than 64 MiB: not a firmware ELF", path);
            cap *= 2;
            buf = realloc(buf, cap);
        }
        if (!buf)
            die("out of memory reading %s", path);
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *size = n;
    return buf;
}

static unsigned long number(const char *text, const char *what)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 0);
    if (errno || end == text || *end)
        die("%s: not a number: '%s'", what, text);
    return v;
}

/* "A,B[,C]" or "AxB[xC]" into up to 3 values; returns how many */
static int triple(const char *text, char sep, unsigned v[3], const char *what)
{
    int n = 0;
    const char *p = text;
    while (n < 3) {
        char *end;
        errno = 0;
        unsigned long x = strtoul(p, &end, 10);
        if (errno || end == p || x > 255)
            die("%s '%s': expected numbers 0..255", what, text);
        v[n++] = (unsigned)x;
        if (*end == '\0')
            return n;
        if (*end != sep)
            break;
        p = end + 1;
    }
    die("%s '%s': expected two or three numbers separated by '%c'", what, text, sep);
}

/* The ELF's section named `want` (its file offset and size), or 0 */
static int elf_section(const uint8_t *elf, size_t elf_size, const char *want, uint32_t *off,
                       uint32_t *size)
{
    uint32_t shoff = rd32(elf + 32);
    unsigned shentsize = rd16(elf + 46), shnum = rd16(elf + 48), shstrndx = rd16(elf + 50);
    if (!shoff || shentsize < 40 || shstrndx >= shnum ||
        shoff + (uint64_t)shentsize * shnum > elf_size)
        return 0;
    const uint8_t *strh = elf + shoff + (size_t)shstrndx * shentsize;
    uint32_t stroff = rd32(strh + 16), strsize = rd32(strh + 20);
    if (stroff + (uint64_t)strsize > elf_size)
        return 0;
    for (unsigned s = 0; s < shnum; s++) {
        const uint8_t *sh = elf + shoff + (size_t)s * shentsize;
        uint32_t name = rd32(sh);
        if (name >= strsize || !memchr(elf + stroff + name, 0, strsize - name) ||
            strcmp((const char *)elf + stroff + name, want))
            continue;
        *off = rd32(sh + 16);
        *size = rd32(sh + 20);
        return rd32(sh + 4) != 8 /* SHT_NOBITS */ && *off + (uint64_t)*size <= elf_size;
    }
    return 0;
}

/* The symbol `want` (its value and size), or 0 */
static int elf_symbol(const uint8_t *elf, size_t elf_size, const char *want, uint32_t *value,
                      uint32_t *size)
{
    uint32_t shoff = rd32(elf + 32);
    unsigned shentsize = rd16(elf + 46), shnum = rd16(elf + 48);
    if (!shoff || shentsize < 40 || shoff + (uint64_t)shentsize * shnum > elf_size)
        return 0;
    for (unsigned s = 0; s < shnum; s++) {
        const uint8_t *sh = elf + shoff + (size_t)s * shentsize;
        if (rd32(sh + 4) != 2) /* SHT_SYMTAB */
            continue;
        uint32_t off = rd32(sh + 16), bytes = rd32(sh + 20), link = rd32(sh + 24);
        if (link >= shnum || off + (uint64_t)bytes > elf_size)
            continue;
        const uint8_t *strh = elf + shoff + (size_t)link * shentsize;
        uint32_t stroff = rd32(strh + 16), strsize = rd32(strh + 20);
        if (stroff + (uint64_t)strsize > elf_size)
            continue;
        for (uint32_t k = 0; k + 16 <= bytes; k += 16) {
            uint32_t name = rd32(elf + off + k);
            if (name < strsize && memchr(elf + stroff + name, 0, strsize - name) &&
                !strcmp((const char *)elf + stroff + name, want)) {
                *value = rd32(elf + off + k + 4);
                *size = rd32(elf + off + k + 8);
                return 1;
            }
        }
    }
    return 0;
}

/* "2x2 mesh" (words) or "2x2m" (the kit's SHAPE) */
static const char *shape_text(const sched_shape *s, int words, char *buf, size_t len)
{
    char z[8] = "";
    if (s->dims == 3)
        snprintf(z, sizeof z, "x%u", s->side[2]);
    snprintf(buf, len, "%ux%u%s%s", s->side[0], s->side[1], z,
             words ? (s->torus ? " torus" : " mesh") : (s->torus ? "t" : "m"));
    return buf;
}

/* A kit program's tables: checks the package in the ELF against the machine and finds node
 * `node`'s area (*area, *area_len); 0 when the program carries none. Dies on anything
 * wrong, naming what to do. */
static int node_tables(const uint8_t *elf, size_t elf_size, const char *elf_path,
                       const sched_shape *want, uint32_t node, const uint8_t **area,
                       uint32_t *area_len, uint32_t *tables_at, uint32_t *tables_bytes)
{
    uint32_t off = 0, size = 0;
    int have_tables = elf_symbol(elf, elf_size, "rvmesh_tables", tables_at, tables_bytes);
    if (!elf_section(elf, elf_size, ".rvmesh_package", &off, &size)) {
        if (have_tables)
            die("%s reserves a tables area (rvmesh_tables) but carries no tables (no section "
                ".rvmesh_package): build the program again (make in its folder)", elf_path);
        return 0;
    }
    char a[40], b[40], c[40];
    sched_pkg p;
    int rc = sched_pkg_open(elf + off, size, NULL, &p);
    if (rc != SCHED_TABLE_OK)
        die("%s: the program's tables (section .rvmesh_package) are damaged: %s; build it "
            "again (make in its folder)", elf_path, sched_table_strerror(rc));
    if (p.shape.dims != want->dims || p.shape.torus != want->torus ||
        p.shape.side[0] != want->side[0] || p.shape.side[1] != want->side[1] ||
        (want->dims == 3 && p.shape.side[2] != want->side[2]))
        die("%s was built for the %s (its tables say so), this image is for the %s: build the "
            "program for this machine (SHAPE=%s in its folder) or give the image its machine "
            "(--shape, --torus/--mesh); nothing written", elf_path,
            shape_text(&p.shape, 1, a, sizeof a), shape_text(want, 1, b, sizeof b),
            shape_text(want, 0, c, sizeof c));
    if (!have_tables || (*tables_at & 3u))
        die("%s carries tables but no word-aligned area in RAM for them (the symbol "
            "rvmesh_tables): build the program again (make in its folder)", elf_path);
    if (*tables_bytes < p.area_bytes)
        die("%s: the tables area (rvmesh_tables) has %u bytes, its largest node's tables %u: "
            "build the program again (make in its folder)", elf_path, *tables_bytes, p.area_bytes);
    rc = sched_pkg_area(&p, node, area, area_len);
    sched_area ar;
    if (rc == SCHED_TABLE_OK)
        rc = sched_area_open(*area, *area_len, want, node, 1, &ar);
    for (uint32_t i = 0; rc == SCHED_TABLE_OK && i < ar.count; i++) {
        sched_area_entry e;
        sched_table t;
        sched_area_get_entry(&ar, i, &e);
        rc = sched_table_open(*area + e.table_off, ar.total_bytes - e.table_off, want, node, &t);
        if (rc == SCHED_TABLE_OK && t.collective != e.collective)
            rc = SCHED_AREA_ERR_LAYOUT;
    }
    if (rc != SCHED_TABLE_OK)
        die("%s: the program's tables for node %u: %s; build it again (make in its folder)",
            elf_path, node, sched_table_strerror(rc));
    return 1;
}

/* Appends a load record (address, bytes, contents padded to 4) at *at; dies, naming `what`,
 * when it lies outside the board's RAM (less the boot ROM's stack) or is misaligned */
static void add_record(uint8_t *img, size_t *at, uint32_t *records, uint32_t addr,
                       const uint8_t *data, uint32_t bytes, const char *what, const char *elf_path,
                       unsigned long ram_base, unsigned long ram_bytes, uint64_t ram_end)
{
    if (addr < ram_base || addr + (uint64_t)bytes > ram_end || (addr & 3u))
        die("%s: %s at 0x%08x (%u bytes) is outside the board's RAM (0x%08lx + %lu bytes, less "
            "the boot ROM's %u-byte stack at the top); nothing written",
            elf_path, what, addr, bytes, ram_base, ram_bytes, BOARD_BOOT_STACK);
    uint32_t padded = (bytes + 3u) & ~3u;
    if (*at + 8 + padded > MAX_IMAGE)
        die("%s: the image would exceed 16 MiB", elf_path);
    wr32(img + *at, addr);
    wr32(img + *at + 4, bytes);
    memcpy(img + *at + 8, data, bytes);
    *at += 8 + padded;
    (*records)++;
}

static int check_image(const char *path, unsigned long slot)
{
    size_t n;
    uint8_t *img = read_file(path, &n);
    if (n < BOARD_IMAGE_HEADER_BYTES) {
        printf("%s: %zu bytes, shorter than a header\n", path, n);
        return 1;
    }
    uint32_t magic = rd32(img), bytes = rd32(img + 8), records = rd32(img + 12);
    int bad = 0;
    printf("%s: magic 0x%08x, version %u, %u bytes, %u records, entry 0x%08x, tohost 0x%08x\n",
           path, magic, rd16(img + 4), bytes, records, rd32(img + 16), rd32(img + 20));
    uint32_t coord = rd32(img + 24), shape = rd32(img + 28);
    printf("  node %u,%u,%u of %ux%ux%u (%u-D %s), RAM %u bytes at 0x%08x\n", coord & 255,
           (coord >> 8) & 255, (coord >> 16) & 255, shape & 255, (shape >> 8) & 255,
           (shape >> 16) & 255, (shape >> 24) & 15, (shape >> 28) & 1 ? "torus" : "mesh",
           rd32(img + 36), rd32(img + 32));
    if (magic != BOARD_IMAGE_MAGIC) {
        printf("  bad magic\n");
        bad = 1;
    }
    if (crc32(img, 60) != rd32(img + 60)) {
        printf("  bad header CRC\n");
        bad = 1;
    }
    if (bytes > n || bytes > slot || bytes < BOARD_IMAGE_HEADER_BYTES) {
        printf("  size %u does not fit the file (%zu) or the slot (%lu)\n", bytes, n, slot);
        bad = 1;
    } else if (crc32(img + 64, bytes - 64) != rd32(img + 56)) {
        printf("  bad payload CRC\n");
        bad = 1;
    }
    printf("  %s\n", bad ? "BAD" : "ok");
    free(img);
    return bad;
}

int main(int argc, char **argv)
{
    const char *elf_path = NULL, *out_path = NULL, *check_path = NULL;
    unsigned coord[3] = {0, 0, 0}, shape[3] = {1, 1, 1};
    int ncoord = 2, nshape = 2, torus = 0;
    unsigned long ram_base = 0x80000000ul, ram_bytes = 131072, slot = 131072;
    const char *sets[16];
    int nsets = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--coord") && v) {
            ncoord = triple(v, ',', coord, "--coord");
            i++;
        } else if (!strcmp(a, "--shape") && v) {
            nshape = triple(v, 'x', shape, "--shape");
            i++;
        } else if (!strcmp(a, "--torus")) {
            torus = 1;
        } else if (!strcmp(a, "--mesh")) {
            torus = 0;
        } else if (!strcmp(a, "--ram-base") && v) {
            ram_base = number(v, "--ram-base");
            i++;
        } else if (!strcmp(a, "--ram-bytes") && v) {
            ram_bytes = number(v, "--ram-bytes");
            i++;
        } else if (!strcmp(a, "--slot") && v) {
            slot = number(v, "--slot");
            i++;
        } else if (!strcmp(a, "--set") && v && nsets < 16) {
            sets[nsets++] = v;
            i++;
        } else if (!strcmp(a, "--check") && v) {
            check_path = v;
            i++;
        } else if (!strcmp(a, "-o") && v) {
            out_path = v;
            i++;
        } else if (a[0] != '-' && !elf_path) {
            elf_path = a;
        } else {
            fprintf(stderr,
                    "usage: %s [--coord X,Y[,Z]] [--shape XxY[xZ]] [--torus|--mesh] "
                    "[--ram-base A] [--ram-bytes N] [--slot N] [--set FIELD=VALUE] -o IMAGE "
                    "FIRMWARE.elf\n       %s --check IMAGE [--slot N]\n",
                    prog, prog);
            return 2;
        }
    }
    if (check_path)
        return check_image(check_path, slot);
    if (!elf_path || !out_path)
        die("need a firmware ELF and -o IMAGE (run without arguments for the usage)");

    /* the machine */
    unsigned dims = (unsigned)(nshape > ncoord ? nshape : ncoord);
    if (nshape != ncoord)
        die("--coord has %d numbers, --shape %d: give both in 2-D or both in 3-D", ncoord, nshape);
    for (unsigned d = 0; d < dims; d++) {
        if (shape[d] < 1 || coord[d] >= shape[d])
            die("node coordinate %c=%u is outside the shape (size %u along %c)", "xyz"[d],
                coord[d], shape[d], "xyz"[d]);
    }

    /* the ELF */
    size_t elf_size;
    uint8_t *elf = read_file(elf_path, &elf_size);
    if (elf_size < 52 || memcmp(elf, "\177ELF", 4) || elf[4] != 1 || elf[5] != 1 ||
        rd16(elf + 18) != 243 || rd16(elf + 16) != 2)
        die("%s is not an RV32 little-endian executable ELF", elf_path);
    uint32_t entry = rd32(elf + 24), phoff = rd32(elf + 28);
    unsigned phentsize = rd16(elf + 42), phnum = rd16(elf + 44);
    if (phoff + (uint64_t)phentsize * phnum > elf_size || phentsize < 32)
        die("%s: program headers past the end of the file", elf_path);

    /* tohost, if the program has one (the C runtime's exit word) */
    uint32_t tohost = 0, tohost_size;
    if (!elf_symbol(elf, elf_size, "tohost", &tohost, &tohost_size))
        tohost = 0;

    /* the image: header, then a record per loadable segment with contents */
    uint8_t *img = calloc(1, MAX_IMAGE);
    if (!img)
        die("out of memory");
    size_t at = BOARD_IMAGE_HEADER_BYTES;
    uint32_t records = 0;
    const uint64_t ram_end = (uint64_t)ram_base + ram_bytes - BOARD_BOOT_STACK;
    for (unsigned k = 0; k < phnum; k++) {
        const uint8_t *ph = elf + phoff + (size_t)k * phentsize;
        if (rd32(ph) != 1) /* PT_LOAD */
            continue;
        uint32_t off = rd32(ph + 4), paddr = rd32(ph + 12), filesz = rd32(ph + 16);
        if (filesz == 0)
            continue;
        if (off + (uint64_t)filesz > elf_size)
            die("%s: a segment runs past the end of the file", elf_path);
        add_record(img, &at, &records, paddr, elf + off, filesz, "the segment", elf_path, ram_base,
                   ram_bytes, ram_end);
    }
    if (records == 0)
        die("%s has no loadable contents", elf_path);
    /* a kit program: this node's tables at rvmesh_tables */
    sched_shape machine = sched_shape_make(dims, shape[0], shape[1], shape[2], torus);
    const uint8_t *area = NULL;
    uint32_t area_len = 0, tables_at = 0, tables_bytes = 0, node = coord[0];
    if (dims >= 2)
        node += shape[0] * (coord[1] + (dims == 3 ? shape[1] * coord[2] : 0));
    int tables = node_tables(elf, elf_size, elf_path, &machine, node, &area, &area_len,
                             &tables_at, &tables_bytes);
    if (tables)
        add_record(img, &at, &records, tables_at, area, area_len, "the tables area", elf_path,
                   ram_base, ram_bytes, ram_end);
    if (entry < ram_base || entry >= ram_end)
        die("%s: entry 0x%08x is outside the board's RAM", elf_path, entry);
    if (at > slot) {
        die("%s: the image is %zu bytes, the flash slot holds %lu (config.mk "
            "BOARD_FLASH_SLOT): make the program smaller; nothing written", elf_path, at, slot);
    }

    wr32(img + 0, BOARD_IMAGE_MAGIC);
    img[4] = (uint8_t)BOARD_IMAGE_VERSION;
    img[5] = 0;
    img[6] = (uint8_t)BOARD_IMAGE_HEADER_BYTES;
    img[7] = 0;
    wr32(img + 8, (uint32_t)at);
    wr32(img + 12, records);
    wr32(img + 16, entry);
    wr32(img + 20, tohost);
    wr32(img + 24, coord[0] | coord[1] << 8 | coord[2] << 16);
    wr32(img + 28, shape[0] | shape[1] << 8 | (dims == 3 ? shape[2] : 1u) << 16 | dims << 24 |
                       (unsigned)torus << 28);
    wr32(img + 32, (uint32_t)ram_base);
    wr32(img + 36, (uint32_t)ram_bytes);
    wr32(img + 56, crc32(img + 64, at - 64));
    for (int s = 0; s < nsets; s++) {
        static const char *const names[] = {"magic", "version", "image_bytes", "records",
                                            "entry", "coord", "shape", "ram_bytes",
                                            "payload_crc"};
        static const unsigned offsets[] = {0, 4, 8, 12, 16, 24, 28, 36, 56};
        const char *eq = strchr(sets[s], '=');
        unsigned f = 0;
        while (eq && f < 9 && (strlen(names[f]) != (size_t)(eq - sets[s]) ||
                               strncmp(sets[s], names[f], (size_t)(eq - sets[s]))))
            f++;
        if (!eq || f == 9)
            die("--set %s: expected FIELD=VALUE with a header field name", sets[s]);
        unsigned long value = number(eq + 1, "--set");
        if (f == 1) {
            img[4] = (uint8_t)value;
            img[5] = (uint8_t)(value >> 8);
        } else {
            wr32(img + offsets[f], (uint32_t)value);
        }
    }
    wr32(img + 60, crc32(img, 60));

    /* write IMAGE.tmp, then rename */
    size_t len = strlen(out_path);
    char *tmp = malloc(len + 5);
    if (!tmp)
        die("out of memory");
    memcpy(tmp, out_path, len);
    memcpy(tmp + len, ".tmp", 5);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(img, 1, at, f) != at || fclose(f) != 0) {
        remove(tmp);
        die("cannot write %s", tmp);
    }
    if (rename(tmp, out_path) != 0) {
        remove(tmp);
        die("cannot rename to %s", out_path);
    }
    char node_z[16] = "", size[16] = "";
    if (dims == 3) {
        snprintf(node_z, sizeof node_z, ",%u", coord[2]);
        snprintf(size, sizeof size, "x%u", shape[2]);
    }
    printf("%s: %s: node %u,%u%s of %ux%u%s %s, %zu bytes in %u records, entry 0x%08x, "
           "tohost 0x%08x", prog, out_path, coord[0], coord[1], node_z, shape[0], shape[1], size,
           torus ? "torus" : "mesh", at, records, entry, tohost);
    if (tables)
        printf(", its tables %u bytes at 0x%08x", area_len, tables_at);
    printf("\n");
    free(tmp);
    free(img);
    free(elf);
    return 0;
}
