# The two README commands. Everything else lives in CMake.
#   make run    install what is missing, build, register the platform for the
#               build tree, run clinfo and a sample host program on the device
#   make check  install what is missing, build with ASan+UBSan, run every test
BUILD ?= build
CHECK_BUILD ?= build-check
JOBS ?= $(shell nproc)
ICD_ENV = OCL_ICD_VENDORS=$(CURDIR)/$(BUILD)/vendors

.PHONY: run check deps build hashcat
deps:
	@bash .ci/deps

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)

run: build
	$(ICD_ENV) clinfo
	$(ICD_ENV) $(BUILD)/tests/host/host_vecadd

# A failing test runs once more before it counts: a few tests measure that
# one queue finishes while another is held (priorities, a debugger stop), and
# a loaded machine can stretch those timings. A real fault fails both runs.
check: deps
	cmake -S . -B $(CHECK_BUILD) -DCMAKE_BUILD_TYPE=Debug -DLOCKSTEP_SANITIZE=ON
	cmake --build $(CHECK_BUILD) -j$(JOBS)
	ctest --test-dir $(CHECK_BUILD) --output-on-failure -j$(JOBS) --timeout 600 --repeat until-pass:2

# hashcat's kernel self-test on the device (minutes; skipped without hashcat)
hashcat: build
	cmake -S . -B $(BUILD) -DLOCKSTEP_HASHCAT_TEST=ON
	ctest --test-dir $(BUILD) -L hashcat --output-on-failure
