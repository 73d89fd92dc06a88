/* SPDX-License-Identifier: ISC */
/* A small interpreter: a stack-machine bytecode (arithmetic, compare, jumps, locals,
 * calls) running programs with known results (factorial 12, iterative Fibonacci 30,
 * recursive Fibonacci 16, Collatz steps of 27, sum 1..2000, gcd), and a recursive-descent
 * evaluator of integer expressions with precedence, unary minus and parentheses. Every
 * result is compared with its known value. */
#include <stdint.h>
#include <stdio.h>

#include "rvmesh_rt.h"

enum opcode {
    OP_HALT, OP_PUSH, OP_POP, OP_DUP, OP_SWAP, OP_OVER,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NEG,
    OP_LT, OP_EQ, OP_JMP, OP_JZ, OP_JNZ,
    OP_LOAD, OP_STORE, OP_CALL, OP_RET, OP_ARG,
};

#define STACK_WORDS 256
#define FRAMES 64
#define LOCALS 8

struct frame {
    int32_t return_pc;
    int32_t base;              /* stack index of the first argument */
    int32_t locals[LOCALS];
};

static int32_t vm_error;

/* Runs `code` with no arguments; returns the top of stack at OP_HALT. */
static int32_t vm_run(const int32_t *code, uint32_t *steps_out)
{
    int32_t stack[STACK_WORDS];
    struct frame frames[FRAMES];
    int32_t sp = 0, fp = 0, pc = 0;
    uint32_t steps = 0;
    frames[0].base = 0;
    for (int i = 0; i < LOCALS; i++)
        frames[0].locals[i] = 0;
    vm_error = 0;
    for (;;) {
        steps++;
        int32_t op = code[pc++];
        int32_t a, b;
        switch (op) {
        case OP_HALT:
            *steps_out = steps;
            return sp > 0 ? stack[sp - 1] : 0;
        case OP_PUSH: stack[sp++] = code[pc++]; break;
        case OP_POP: sp--; break;
        case OP_DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case OP_SWAP: a = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = a; break;
        case OP_OVER: stack[sp] = stack[sp - 2]; sp++; break;
        case OP_ADD: b = stack[--sp]; stack[sp - 1] += b; break;
        case OP_SUB: b = stack[--sp]; stack[sp - 1] -= b; break;
        case OP_MUL: b = stack[--sp]; stack[sp - 1] *= b; break;
        case OP_DIV: b = stack[--sp]; stack[sp - 1] /= b; break;
        case OP_MOD: b = stack[--sp]; stack[sp - 1] %= b; break;
        case OP_NEG: stack[sp - 1] = -stack[sp - 1]; break;
        case OP_LT: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] < b; break;
        case OP_EQ: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] == b; break;
        case OP_JMP: pc = code[pc]; break;
        case OP_JZ: a = stack[--sp]; pc = a == 0 ? code[pc] : pc + 1; break;
        case OP_JNZ: a = stack[--sp]; pc = a != 0 ? code[pc] : pc + 1; break;
        case OP_LOAD: stack[sp++] = frames[fp].locals[code[pc++]]; break;
        case OP_STORE: frames[fp].locals[code[pc++]] = stack[--sp]; break;
        case OP_ARG: stack[sp++] = stack[frames[fp].base + code[pc++]]; break;
        case OP_CALL: /* CALL target nargs */
            if (fp + 1 >= FRAMES) { vm_error = 1; return 0; }
            fp++;
            frames[fp].return_pc = pc + 2;
            frames[fp].base = sp - code[pc + 1];
            pc = code[pc];
            break;
        case OP_RET: /* result on top; drops the arguments */
            a = stack[sp - 1];
            sp = frames[fp].base;
            stack[sp++] = a;
            pc = frames[fp].return_pc;
            fp--;
            break;
        default:
            vm_error = 2;
            return 0;
        }
        if (sp < 0 || sp >= STACK_WORDS - 2) { vm_error = 3; return 0; }
        if (steps > 1000000u) { vm_error = 4; return 0; }
    }
}

/* ------------------------------------------------------------ program builder
 * Programs are written with symbolic labels: L(n) marks label n at the current position;
 * a jump or call names a label, and build_end() patches the targets. */
#define PROGRAM_WORDS 128
#define LABELS 16

struct builder {
    int32_t *code;
    int32_t length;
    int32_t label_at[LABELS];
    int32_t fixup_at[LABELS * 4];
    int32_t fixup_label[LABELS * 4];
    int32_t fixups;
};

static void put(struct builder *b, int32_t word)
{
    b->code[b->length++] = word;
}

static void put_op(struct builder *b, int32_t op, int32_t argument)
{
    put(b, op);
    put(b, argument);
}

static void put_jump(struct builder *b, int32_t op, int32_t label)
{
    put(b, op);
    b->fixup_at[b->fixups] = b->length;
    b->fixup_label[b->fixups++] = label;
    put(b, 0);
}

static void put_label(struct builder *b, int32_t label)
{
    b->label_at[label] = b->length;
}

static void build_end(struct builder *b)
{
    for (int32_t i = 0; i < b->fixups; i++)
        b->code[b->fixup_at[i]] = b->label_at[b->fixup_label[i]];
}

static int32_t program_factorial[PROGRAM_WORDS], program_fib_iterative[PROGRAM_WORDS],
    program_fib_recursive[PROGRAM_WORDS], program_collatz[PROGRAM_WORDS],
    program_sum[PROGRAM_WORDS], program_gcd_mod[PROGRAM_WORDS],
    program_gcd_sub[PROGRAM_WORDS];

static void build_programs(void)
{
    struct builder b;

    /* factorial(12): r = 1; n = 12; while (n) { r *= n; n--; } return r */
    b = (struct builder){.code = program_factorial};
    put_op(&b, OP_PUSH, 1); put_op(&b, OP_STORE, 0);
    put_op(&b, OP_PUSH, 12); put_op(&b, OP_STORE, 1);
    put_label(&b, 0);
    put_op(&b, OP_LOAD, 1); put_jump(&b, OP_JZ, 1);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_LOAD, 1); put(&b, OP_MUL); put_op(&b, OP_STORE, 0);
    put_op(&b, OP_LOAD, 1); put_op(&b, OP_PUSH, 1); put(&b, OP_SUB); put_op(&b, OP_STORE, 1);
    put_jump(&b, OP_JMP, 0);
    put_label(&b, 1);
    put_op(&b, OP_LOAD, 0); put(&b, OP_HALT);
    build_end(&b);

    /* fib(30), iterative: a = 0; b = 1; n = 30; while (n) { (a, b) = (b, a + b); n--; } */
    b = (struct builder){.code = program_fib_iterative};
    put_op(&b, OP_PUSH, 0); put_op(&b, OP_STORE, 0);
    put_op(&b, OP_PUSH, 1); put_op(&b, OP_STORE, 1);
    put_op(&b, OP_PUSH, 30); put_op(&b, OP_STORE, 2);
    put_label(&b, 0);
    put_op(&b, OP_LOAD, 2); put_jump(&b, OP_JZ, 1);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_LOAD, 1); put(&b, OP_ADD);
    put_op(&b, OP_LOAD, 1); put_op(&b, OP_STORE, 0); put_op(&b, OP_STORE, 1);
    put_op(&b, OP_LOAD, 2); put_op(&b, OP_PUSH, 1); put(&b, OP_SUB); put_op(&b, OP_STORE, 2);
    put_jump(&b, OP_JMP, 0);
    put_label(&b, 1);
    put_op(&b, OP_LOAD, 0); put(&b, OP_HALT);
    build_end(&b);

    /* fib(16), recursive: fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2) */
    b = (struct builder){.code = program_fib_recursive};
    put_op(&b, OP_PUSH, 16); put_jump(&b, OP_CALL, 0); put(&b, 1); put(&b, OP_HALT);
    put_label(&b, 0);
    put_op(&b, OP_ARG, 0); put_op(&b, OP_PUSH, 2); put(&b, OP_LT); put_jump(&b, OP_JZ, 1);
    put_op(&b, OP_ARG, 0); put(&b, OP_RET);
    put_label(&b, 1);
    put_op(&b, OP_ARG, 0); put_op(&b, OP_PUSH, 1); put(&b, OP_SUB);
    put_jump(&b, OP_CALL, 0); put(&b, 1);
    put_op(&b, OP_ARG, 0); put_op(&b, OP_PUSH, 2); put(&b, OP_SUB);
    put_jump(&b, OP_CALL, 0); put(&b, 1);
    put(&b, OP_ADD); put(&b, OP_RET);
    build_end(&b);

    /* Collatz steps of 27: n = 27; s = 0; while (n != 1) { n = n % 2 ? 3n + 1 : n / 2; s++; } */
    b = (struct builder){.code = program_collatz};
    put_op(&b, OP_PUSH, 27); put_op(&b, OP_STORE, 0);
    put_op(&b, OP_PUSH, 0); put_op(&b, OP_STORE, 1);
    put_label(&b, 0);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_PUSH, 1); put(&b, OP_EQ); put_jump(&b, OP_JNZ, 3);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_PUSH, 2); put(&b, OP_MOD); put_jump(&b, OP_JZ, 1);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_PUSH, 3); put(&b, OP_MUL);
    put_op(&b, OP_PUSH, 1); put(&b, OP_ADD); put_op(&b, OP_STORE, 0); put_jump(&b, OP_JMP, 2);
    put_label(&b, 1);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_PUSH, 2); put(&b, OP_DIV); put_op(&b, OP_STORE, 0);
    put_label(&b, 2);
    put_op(&b, OP_LOAD, 1); put_op(&b, OP_PUSH, 1); put(&b, OP_ADD); put_op(&b, OP_STORE, 1);
    put_jump(&b, OP_JMP, 0);
    put_label(&b, 3);
    put_op(&b, OP_LOAD, 1); put(&b, OP_HALT);
    build_end(&b);

    /* sum 1..2000 */
    b = (struct builder){.code = program_sum};
    put_op(&b, OP_PUSH, 0); put_op(&b, OP_STORE, 0);
    put_op(&b, OP_PUSH, 2000); put_op(&b, OP_STORE, 1);
    put_label(&b, 0);
    put_op(&b, OP_LOAD, 1); put_jump(&b, OP_JZ, 1);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_LOAD, 1); put(&b, OP_ADD); put_op(&b, OP_STORE, 0);
    put_op(&b, OP_LOAD, 1); put_op(&b, OP_PUSH, 1); put(&b, OP_SUB); put_op(&b, OP_STORE, 1);
    put_jump(&b, OP_JMP, 0);
    put_label(&b, 1);
    put_op(&b, OP_LOAD, 0); put(&b, OP_HALT);
    build_end(&b);

    /* gcd(1071, 462) on the stack: a b; while (b) { a b -> b (a % b) } */
    b = (struct builder){.code = program_gcd_mod};
    put_op(&b, OP_PUSH, 1071); put_op(&b, OP_PUSH, 462);
    put_label(&b, 0);
    put(&b, OP_DUP); put_jump(&b, OP_JZ, 1);
    put(&b, OP_SWAP); put(&b, OP_OVER); put(&b, OP_MOD); put_jump(&b, OP_JMP, 0);
    put_label(&b, 1);
    put(&b, OP_POP); put(&b, OP_HALT);
    build_end(&b);

    /* gcd(1071, 462) by subtraction: while (a != b) { if (a < b) b -= a; else a -= b; } */
    b = (struct builder){.code = program_gcd_sub};
    put_op(&b, OP_PUSH, 1071); put_op(&b, OP_STORE, 0);
    put_op(&b, OP_PUSH, 462); put_op(&b, OP_STORE, 1);
    put_label(&b, 0);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_LOAD, 1); put(&b, OP_EQ); put_jump(&b, OP_JNZ, 2);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_LOAD, 1); put(&b, OP_LT); put_jump(&b, OP_JZ, 1);
    put_op(&b, OP_LOAD, 1); put_op(&b, OP_LOAD, 0); put(&b, OP_SUB); put_op(&b, OP_STORE, 1);
    put_jump(&b, OP_JMP, 0);
    put_label(&b, 1);
    put_op(&b, OP_LOAD, 0); put_op(&b, OP_LOAD, 1); put(&b, OP_SUB); put_op(&b, OP_STORE, 0);
    put_jump(&b, OP_JMP, 0);
    put_label(&b, 2);
    put_op(&b, OP_LOAD, 0); put(&b, OP_HALT);
    build_end(&b);
}

/* ----------------------------------------------------------- expression evaluator */
struct parser {
    const char *text;
    int error;
};

static int32_t parse_sum(struct parser *p);

static void skip_spaces(struct parser *p)
{
    while (*p->text == ' ')
        p->text++;
}

static int32_t parse_primary(struct parser *p)
{
    skip_spaces(p);
    if (*p->text == '(') {
        p->text++;
        int32_t value = parse_sum(p);
        skip_spaces(p);
        if (*p->text != ')') { p->error = 1; return 0; }
        p->text++;
        return value;
    }
    if (*p->text == '-') {
        p->text++;
        return -parse_primary(p);
    }
    if (*p->text < '0' || *p->text > '9') { p->error = 2; return 0; }
    int32_t value = 0;
    while (*p->text >= '0' && *p->text <= '9')
        value = value * 10 + (*p->text++ - '0');
    return value;
}

static int32_t parse_product(struct parser *p)
{
    int32_t value = parse_primary(p);
    for (;;) {
        skip_spaces(p);
        char op = *p->text;
        if (op != '*' && op != '/' && op != '%')
            return value;
        p->text++;
        int32_t rhs = parse_primary(p);
        if ((op == '/' || op == '%') && rhs == 0) { p->error = 3; return 0; }
        value = op == '*' ? value * rhs : op == '/' ? value / rhs : value % rhs;
    }
}

static int32_t parse_sum(struct parser *p)
{
    int32_t value = parse_product(p);
    for (;;) {
        skip_spaces(p);
        char op = *p->text;
        if (op != '+' && op != '-')
            return value;
        p->text++;
        int32_t rhs = parse_product(p);
        value = op == '+' ? value + rhs : value - rhs;
    }
}

struct expression_case {
    const char *text;
    int32_t expected;
};

static const struct expression_case expression_cases[] = {
    {"1 + 2 * 3", 7},
    {"(1 + 2) * 3", 9},
    {"100 / 7", 14},
    {"-100 / 7", -14},
    {"-100 % 7", -2},
    {"100 % -7", 2},
    {"2 * (3 + 4) * (5 - 6) - -8", -6},
    {"((((((42))))))", 42},
    {"1000000 * 1000 / 999", 1001001},
    {"12345 * 6789 % 1000 + 17 * -(3 - 10)", 324},
    {"2147483647 - 1 + 1", 2147483647},
    {"-65536 * 32768 / -2", 1073741824},
};

int main(void)
{
    uint64_t cycles_start = rvmesh_cycles();
    uint64_t instret_start = rvmesh_instret();
    int failures = 0;
    uint32_t total_steps = 0;

    build_programs();
    struct vm_case {
        const char *name;
        const int32_t *code;
        int32_t expected;
    } vm_cases[] = {
        {"factorial(12)", program_factorial, 479001600},
        {"fib_iterative(30)", program_fib_iterative, 832040},
        {"fib_recursive(16)", program_fib_recursive, 987},
        {"collatz_steps(27)", program_collatz, 111},
        {"sum(1..2000)", program_sum, 2001000},
        {"gcd_mod(1071,462)", program_gcd_mod, 21},
        {"gcd_sub(1071,462)", program_gcd_sub, 21},
    };
    for (unsigned i = 0; i < sizeof vm_cases / sizeof vm_cases[0]; i++) {
        uint32_t steps = 0;
        int32_t result = vm_run(vm_cases[i].code, &steps);
        total_steps += steps;
        if (vm_error || result != vm_cases[i].expected) {
            printf("interp: FAIL %s = %ld (error %ld) expected %ld\n", vm_cases[i].name,
                   (long)result, (long)vm_error, (long)vm_cases[i].expected);
            failures++;
        }
    }
    /* the expression evaluator, 10 rounds over the cases */
    uint32_t expression_sum = 0;
    for (int round = 0; round < 10; round++)
        for (unsigned i = 0; i < sizeof expression_cases / sizeof expression_cases[0]; i++) {
            struct parser p = {expression_cases[i].text, 0};
            int32_t value = parse_sum(&p);
            skip_spaces(&p);
            if (p.error || *p.text != '\0' || value != expression_cases[i].expected) {
                if (round == 0) {
                    printf("interp: FAIL \"%s\" = %ld (error %d) expected %ld\n",
                           expression_cases[i].text, (long)value, p.error,
                           (long)expression_cases[i].expected);
                    failures++;
                }
            }
            expression_sum += (uint32_t)value;
        }

    uint64_t cycles = rvmesh_cycles() - cycles_start;
    uint64_t instret = rvmesh_instret() - instret_start;
    printf("interp: %u bytecode steps, expression sum 0x%08lx: %s; cycles %lu instret %lu\n",
           (unsigned)total_steps, (unsigned long)expression_sum, failures ? "FAIL" : "ok",
           (unsigned long)cycles, (unsigned long)instret);
    return failures;
}
