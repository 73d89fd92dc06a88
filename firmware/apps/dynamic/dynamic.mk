# SPDX-License-Identifier: ISC
# Dynamic broadcast on the machine (firmware/apps/dynamic, issue 16): the host tool that
# checks a run's delivery log, and the benchmark.
#   make dyn-report      $(BUILD)/bin/dyn-report (firmware/apps/dynamic/host/dyn_report.c)
#   make bench-dynamic   delay against load on the machine beside the abstract model and the
#                        paper's formula: $(BUILD)/bench/dynamic.json and dynamic.svg
#                        (firmware/apps/dynamic/bench_dynamic.sh)

DYN_REPORT := $(BUILD)/bin/dyn-report
.PHONY: dyn-report bench-dynamic
dyn-report: $(DYN_REPORT)
$(DYN_REPORT): firmware/apps/dynamic/host/dyn_report.c firmware/apps/dynamic/dyn_log.h $(SCHED_HOST_OBJS) $(SCHED_HEADERS)
	@mkdir -p $(dir $@)
	$(SCHED_HOST_CC) $(SCHED_CFLAGS) -Ifirmware/apps/dynamic firmware/apps/dynamic/host/dyn_report.c $(SCHED_HOST_OBJS) -lm -o $@

BENCH_TARGETS += bench-dynamic
bench-dynamic: $(DYN_REPORT)
	BUILD=$(BUILD) firmware/apps/dynamic/bench_dynamic.sh
