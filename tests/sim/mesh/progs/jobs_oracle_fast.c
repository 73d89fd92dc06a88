/* SPDX-License-Identifier: ISC
 * jobs_oracle.c with a broken clock: every job is recorded as taking one cycle, which
 * mesh-sim's bounds check must refuse (see there). */
#define ORACLE_FAST_CLOCK 1
#include "jobs_oracle.c"
