/* SPDX-License-Identifier: ISC */
/* jobs_oracle.c with faults that mesh-sim's test bench must catch (see there). */
#define ORACLE_FAULTS 1
#include "jobs_oracle.c"
