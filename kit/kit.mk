# SPDX-License-Identifier: ISC
# The application kit (kit/README.md): targets of the tree's Makefile. A program's own
# Makefile includes kit/program.mk instead.
#   make new-program DIR=~/myprog   a new program folder from kit/template, ready for `make run`

.PHONY: new-program
new-program:
	@test -n "$(DIR)" || { echo "make new-program DIR=/path/to/a/new/folder: copies kit/template there"; exit 1; }
	@test ! -e "$(DIR)/Makefile" || { echo "$(DIR)/Makefile exists already: give a new folder"; exit 1; }
	@mkdir -p "$(DIR)"
	@cp kit/template/main.c "$(DIR)/main.c"
	@sed "s|^RVMESH .*|RVMESH      := $(CURDIR)|" kit/template/Makefile > "$(DIR)/Makefile"
	@echo "a new program in $(DIR) (main.c, Makefile): cd $(DIR) && make run"

# make bench-apps: the example applications of firmware/apps (nbody, sort, fft2d, jacobi,
# cannon, summa) on the 4x4 and 8x8 tori, checked against the host's reference, the kit's own
# figures, and rvm_allreduce, rvm_reduce and rvm_reduce_scatter as OSU's osu_allreduce,
# osu_reduce and osu_reduce_scatter measure them (kit/bench_apps.sh): build/bench/apps.json,
# build/bench/kit.json, build/bench/allreduce.json, reduce.json, reduce_scatter.json
BENCH_TARGETS += bench-apps
.PHONY: bench-apps
bench-apps:
	BUILD=$(BUILD) kit/bench_apps.sh
