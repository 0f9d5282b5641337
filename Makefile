# SPDX-License-Identifier: GPL-2.0-only
#
#   make            build lnetctl, lnetd, libcfg (build/)
#   make check      unit tests (plain and ASan+UBSan), fuzz corpus replay, bats
#   make demo       private lnetd + examples/lnet.yaml imported and shown
#   make fuzz       libFuzzer harnesses, FUZZ_SECONDS each (default 60);
#                   FUZZ="socklnd_rx wire" runs only those
#   make bench      bench/udsp, import, lnet, routing (bench/kernel: skipped
#                   without /dev/lnet)
#   make bench-kernel  bench/kernel in the test VM: lnet.ko vs lnetd vs raw TCP
#   make soak       the long soak (scripts/soak.sh): SOAK_SECONDS (1500),
#                   SOAK_CYCLES (6), SOAK_SEED (random, printed); a 2-minute
#                   one runs inside make check
#   V=1             show the commands

PREFIX ?= /usr
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
SCHEMADIR ?= $(DATADIR)/lnet/yaml-schemas
UNITDIR ?= $(PREFIX)/lib/systemd/system
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
SYSCONFDIR ?= /etc

CC ?= cc
OBJCOPY ?= objcopy
CFLAGS ?= -O2 -g
WFLAGS := -Wall -Wextra -Werror -Wstrict-prototypes -Wmissing-prototypes \
	  -Wno-unused-parameter -Wno-missing-field-initializers
NL_CFLAGS := $(shell pkg-config --cflags libnl-3.0 libnl-route-3.0 2>/dev/null)
NL_LIBS := $(shell pkg-config --libs libnl-3.0 libnl-route-3.0 2>/dev/null)
BASE_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Iinclude/uapi -MMD -MP $(WFLAGS)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all \
	-DLNET_LOCK_CHECKS

ifneq ($(V),1)
Q := @
quiet = @echo "  $(1)	$(2)";
endif

B := build
S := build/san

# NID library + UDSP wire + the state-free validators + libc OS layer:
# linked by everything (libcfg runs the core's own checks before sending).
NIDLIB_SRCS := kernel/os/os_user.c $(wildcard kernel/nid/*.c) kernel/udsp/udsp_wire.c \
	kernel/core/validate.c
# The rest of the LNet core (kernel/), user-space build.
# The socket LND builds into both; os_user_sock*.c is its user-space OS layer
# (lnet.ko has os_linux_sock.c and os_linux_poll.c, see kernel/Kbuild), and
# os_sock_v4.c the IPv4-only calls both layers share.
CORE_SRCS := kernel/os/os_user_if.c kernel/os/os_user_thread.c kernel/os/os_sock_v4.c \
	$(wildcard kernel/os/os_user_sock*.c) $(filter-out kernel/udsp/udsp_wire.c \
	kernel/core/validate.c, \
	$(wildcard kernel/core/*.c kernel/udsp/*.c kernel/wire/*.c kernel/selftest/*.c kernel/lnd/*.c \
	kernel/lnd/socklnd/*.c kernel/builtin/*.c))
CFG_SRCS := $(wildcard libcfg/*.c)
LNETCTL_SRCS := $(wildcard lnetctl/*.c)
LNETD_SRCS := $(wildcard lnetd/*.c)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)

objs = $(patsubst %.c,$(1)/%.o,$(2))

.PHONY: all check check-unit check-bats check-fuzz demo fuzz bench clean install deps
.PHONY: kmod check-kernel bench-kernel

all: $(B)/lnetctl $(B)/lnetd

deps:
	$(Q)scripts/install-deps.sh

# --- objects, two flavours ------------------------------------------------------
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(CFLAGS) $(BASE_CFLAGS) $(NL_CFLAGS) -c -o $@ $<

$(S)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC-SAN,$<)$(CC) -O1 -g $(SAN_FLAGS) $(BASE_CFLAGS) $(NL_CFLAGS) -c -o $@ $<

# --- libraries ------------------------------------------------------------------
define libs
$(1)/libnid.a: $(call objs,$(1),$(NIDLIB_SRCS))
	$$(call quiet,AR,$$@)rm -f $$@ && ar rcs $$@ $$^
$(1)/libcore.a: $(call objs,$(1),$(CORE_SRCS))
	$$(call quiet,AR,$$@)rm -f $$@ && ar rcs $$@ $$^
$(1)/libcfg.a: $(call objs,$(1),$(CFG_SRCS))
	$$(call quiet,AR,$$@)rm -f $$@ && ar rcs $$@ $$^
endef
$(eval $(call libs,$(B)))
$(eval $(call libs,$(S)))

# --- programs -----------------------------------------------------------------------
# Their objects go under build/prog/: build/lnetctl and build/lnetd are the binaries.
$(B)/prog/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(CFLAGS) $(BASE_CFLAGS) $(NL_CFLAGS) -c -o $@ $<

$(B)/lnetctl: $(call objs,$(B)/prog,$(LNETCTL_SRCS)) $(B)/libcfg.a $(B)/libnid.a
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -o $@ $^ -lyaml -lreadline
$(B)/lnetd: $(call objs,$(B)/prog,$(LNETD_SRCS)) $(B)/libcore.a $(B)/libnid.a
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(NL_LIBS) -lpthread

# lnetd with ASan and UBSan: what the soak runs (its reports fail the soak).
# build/san/lnetd/ holds its objects, so the binary is build/san/bin/lnetd.
SAN_LNETD := $(S)/bin/lnetd
$(SAN_LNETD): $(call objs,$(S),$(LNETD_SRCS)) $(S)/libcore.a $(S)/libnid.a
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) -g $(SAN_FLAGS) -o $@ $^ $(NL_LIBS) -lpthread

# --- unit tests (cmocka), plain and sanitized ------------------------------------
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(UNIT_SRCS))
UNIT_SAN_BINS := $(patsubst tests/unit/%.c,$(S)/tests/%,$(UNIT_SRCS))
TEST_LIBS := -lcmocka -lyaml $(NL_LIBS) -lpthread

$(B)/tests/%: $(B)/tests/unit/%.o $(B)/libcfg.a $(B)/libcore.a $(B)/libnid.a
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(TEST_LIBS)
$(S)/tests/%: $(S)/tests/unit/%.o $(S)/libcfg.a $(S)/libcore.a $(S)/libnid.a
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) -g $(SAN_FLAGS) -o $@ $^ $(TEST_LIBS)
# test_transport runs build/lnetd: order-only, so it is built but not linked in.
$(B)/tests/test_transport $(S)/tests/test_transport: | $(B)/lnetd

# --- fuzz harnesses: replay driver (gcc, sanitized) and libFuzzer (clang) --------
FUZZ_REPLAY := $(patsubst tests/fuzz/%.c,$(S)/fuzz/%,$(FUZZ_SRCS))
$(S)/fuzz/%: $(S)/tests/fuzz/%.o $(S)/tests/fuzz/replay.o $(S)/libcfg.a $(S)/libcore.a $(S)/libnid.a
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) -g $(SAN_FLAGS) -o $@ $^ $(TEST_LIBS)
$(S)/tests/fuzz/replay.o: tests/fuzz/replay/replay.c
	@mkdir -p $(dir $@)
	$(call quiet,CC-SAN,$<)$(CC) -O1 -g $(SAN_FLAGS) $(BASE_CFLAGS) -c -o $@ $<
# lnetd's request framing is not in a library: its harness links it alone.
$(S)/fuzz/fuzz_lnetd_request: $(S)/lnetd/request.o

FUZZ_SECONDS ?= 60
fuzz:
	$(Q)scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ)

# --- bench ------------------------------------------------------------------------------
# bench/benchlib.c: what the data path benches share (nodes, selftest, raw TCP)
BENCH_SRCS := $(filter-out bench/benchlib.c,$(wildcard bench/*.c))
BENCH_BINS := $(patsubst bench/%.c,$(B)/bench/%,$(BENCH_SRCS))
$(B)/bench/%: $(B)/bench/%.o $(B)/bench/benchlib.o $(B)/libcfg.a $(B)/libcore.a $(B)/libnid.a
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(TEST_LIBS)
bench: $(BENCH_BINS)
	$(Q)for b in $(BENCH_BINS); do $$b || exit 1; done

# --- check -----------------------------------------------------------------------------
check: deps
	$(Q)$(MAKE) --no-print-directory all $(SAN_LNETD) $(UNIT_BINS) $(UNIT_SAN_BINS) \
		$(FUZZ_REPLAY) $(BENCH_BINS)
	$(Q)scripts/run-tests.sh

# --- soak: 8 nodes and 2 routers under faults (outside make check) --------------------
SOAK_SECONDS ?= 1500
SOAK_CYCLES ?= 6
SOAK_SEED ?=
.PHONY: soak
soak: deps
	$(Q)$(MAKE) --no-print-directory all $(SAN_LNETD)
	$(Q)scripts/soak.sh --duration $(SOAK_SECONDS) --cycles $(SOAK_CYCLES) \
		$(if $(SOAK_SEED),--seed $(SOAK_SEED))

# --- kernel module (lnet.ko) and its QEMU tests -----------------------------------
# The headers of the running kernel when it has them, else the newest Debian
# linux-headers-*-amd64 installed (CI and build hosts run another kernel).
KVER_HDRS = $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | \
	sed 's|.*/linux-headers-||' | sort -V | tail -n1)
KERNELDIR ?= $(if $(wildcard /lib/modules/$(shell uname -r)/build),\
	/lib/modules/$(shell uname -r)/build,/lib/modules/$(KVER_HDRS)/build)
KMOD_DIR := $(B)/kmod

# Kbuild writes objects beside the sources: mirror kernel/ and include/ as
# symlinks under build/kmod so that they land there instead.
kmod:
	@mkdir -p $(KMOD_DIR)/include
	$(Q)find $(KMOD_DIR) -type l -delete
	$(Q)cp -rs $(CURDIR)/kernel/. $(KMOD_DIR)/ && cp -rs $(CURDIR)/include/. $(KMOD_DIR)/include/
	$(Q)$(MAKE) -C $(KERNELDIR) M=$(CURDIR)/$(KMOD_DIR) modules

$(B)/tests/kernel/ioctl-fuzz: tests/kernel/ioctl-fuzz.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(CFLAGS) $(BASE_CFLAGS) -o $@ $<

$(B)/tests/kernel/ioctl-fuzz32: tests/kernel/ioctl-fuzz.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$< -m32)$(CC) -m32 -static $(CFLAGS) $(BASE_CFLAGS) -o $@ $<

$(B)/tests/kernel/lnetctl-netns: tests/kernel/lnetctl-netns.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(CFLAGS) $(BASE_CFLAGS) -static -o $@ $<

check-kernel: deps
	$(Q)tests/kernel/run.sh

# Not part of check: bench/kernel in the test VM (lnet.ko vs lnetd vs raw TCP).
bench-kernel: deps
	$(Q)BENCH=1 tests/kernel/run.sh

demo: deps all
	$(Q)scripts/demo.sh

clean:
	rm -rf build

# --- install -----------------------------------------------------------------------------
# liblnetcfg: libcfg and the NID library (what lnetctl links), static and
# shared (its objects built again with -fPIC, under build/pic/).
VERSION := $(shell sed -n 's/^\#define LNETCTL_VERSION[^"]*"\(.*\)"/\1/p' lnetctl/main.c)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
LIBCFG_SRCS := $(CFG_SRCS) $(NIDLIB_SRCS)
LIBCFG_OBJS := $(call objs,$(B),$(LIBCFG_SRCS))
LIBCFG_PIC_OBJS := $(call objs,$(B)/pic,$(LIBCFG_SRCS))
SONAME := liblnetcfg.so.$(SOMAJOR)
# What the shared library exports: the API of <lnet/cfg.h>, nothing else.
LIBCFG_MAP := libcfg/liblnetcfg.map

$(B)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC-PIC,$<)$(CC) $(CFLAGS) -fPIC $(BASE_CFLAGS) -c -o $@ $<
# The static library is one object in which the same API is all that stays
# global (its symbol list read from the version script), so a program
# linking it statically does not meet the internal names either.
$(B)/liblnetcfg.o: $(LIBCFG_OBJS) $(LIBCFG_MAP)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -r -nostdlib -o $@ $(LIBCFG_OBJS) && \
		sed -n 's/^\t\(cfg_[a-z0-9_]*\);$$/\1/p' $(LIBCFG_MAP) >$@.syms && \
		$(OBJCOPY) --keep-global-symbols=$@.syms $@ && rm -f $@.syms
$(B)/liblnetcfg.a: $(B)/liblnetcfg.o
	$(call quiet,AR,$@)rm -f $@ && ar rcs $@ $^
$(B)/liblnetcfg.so.$(VERSION): $(LIBCFG_PIC_OBJS) $(LIBCFG_MAP)
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined \
		-Wl,--version-script=$(LIBCFG_MAP) -o $@ $(LIBCFG_PIC_OBJS) -lyaml

# Every file of the tree that goes into liblnetcfg: its sources, the
# headers they include and the version script (tests/bats/install.bats
# checks their licences).
.PHONY: print-liblnetcfg-files
print-liblnetcfg-files:
	@{ $(CC) $(filter-out -MMD -MP,$(BASE_CFLAGS)) -MM $(LIBCFG_SRCS); echo $(LIBCFG_MAP); } | \
		tr ' \\' '\n\n' | grep -v -e '^$$' -e ':$$' | xargs realpath --relative-to=. | \
		LC_ALL=C sort -u

# Headers: libcfg/cfg.h and the uapi ones, the only ones it includes (it
# names no header of kernel/), all in $(INCLUDEDIR)/lnet/ (#include
# <lnet/cfg.h>); their quoted includes are rewritten to the file name
# alone, as they sit side by side.
INSTALL_HDRS := $(wildcard include/uapi/lnet/*.h) libcfg/cfg.h

# Files made from dist/*.in with the install paths.
DIST_GEN := $(B)/dist/lnetcfg.pc $(B)/dist/lnetd.service $(B)/dist/lnet.service
$(B)/dist/%: dist/%.in FORCE
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@BINDIR@|$(BINDIR)|g' \
		-e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' \
		-e 's|@VERSION@|$(VERSION)|g' $< >$@
# The paths come from the make command line: always regenerate.
.PHONY: FORCE
FORCE:

install: all $(B)/liblnetcfg.a $(B)/liblnetcfg.so.$(VERSION) $(DIST_GEN)
	install -v -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(SBINDIR)"
	install -v -m 0755 $(B)/lnetctl "$(DESTDIR)$(BINDIR)/lnetctl"
	install -v -m 0755 $(B)/lnetd "$(DESTDIR)$(SBINDIR)/lnetd"
	install -d "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(PKGCONFIGDIR)" "$(DESTDIR)$(INCLUDEDIR)/lnet" \
		"$(DESTDIR)$(MANDIR)/man5" "$(DESTDIR)$(MANDIR)/man8" "$(DESTDIR)$(BASHCOMPDIR)" \
		"$(DESTDIR)$(SCHEMADIR)" "$(DESTDIR)$(UNITDIR)"
	install -m 0644 $(B)/liblnetcfg.a "$(DESTDIR)$(LIBDIR)/liblnetcfg.a"
	install -m 0755 $(B)/liblnetcfg.so.$(VERSION) "$(DESTDIR)$(LIBDIR)/liblnetcfg.so.$(VERSION)"
	ln -sf liblnetcfg.so.$(VERSION) "$(DESTDIR)$(LIBDIR)/$(SONAME)"
	ln -sf $(SONAME) "$(DESTDIR)$(LIBDIR)/liblnetcfg.so"
	install -m 0644 $(B)/dist/lnetcfg.pc "$(DESTDIR)$(PKGCONFIGDIR)/lnetcfg.pc"
	for h in $(INSTALL_HDRS); do \
		sed -E 's|^#include "([^"]*/)?([^"/]+)"|#include "\2"|' $$h \
			>"$(DESTDIR)$(INCLUDEDIR)/lnet/$${h##*/}" && \
		chmod 0644 "$(DESTDIR)$(INCLUDEDIR)/lnet/$${h##*/}" || exit 1; \
	done
	install -m 0644 $(wildcard man/*.5) "$(DESTDIR)$(MANDIR)/man5"
	install -m 0644 $(wildcard man/*.8) "$(DESTDIR)$(MANDIR)/man8"
	install -m 0644 completions/lnetctl "$(DESTDIR)$(BASHCOMPDIR)/lnetctl"
	install -m 0644 yaml-schemas/*.schema.yaml "$(DESTDIR)$(SCHEMADIR)"
	install -m 0644 $(B)/dist/lnetd.service $(B)/dist/lnet.service "$(DESTDIR)$(UNITDIR)"

-include $(shell find build -name '*.d' 2>/dev/null)
