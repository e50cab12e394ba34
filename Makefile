# The two README commands. Everything else lives in CMake.
#   make run    install what is missing, build, register the platform for the
#               build tree, run clinfo and a sample host program on the device
#   make check  install what is missing, build with ASan+UBSan, run every test
#   make conformance  build, then run piglit's OpenCL suite against it
#               (tests/conformance/piglit.sh; minutes, not part of check)
#   make check-suites  the same build, then every suite and host program
#               under both checkers at both warp widths (minutes)
#   make check-engines the same build, then every suite and host program on
#               both engines at warp widths 32 and 8 with 1 and 2 host
#               threads (tests/util/engines.sh), and the engines'
#               differential test over more kernels (longer than check)
#   make ffmpeg build, then compare ffmpeg's OpenCL filters with pocl and
#               Oclgrind (tests/conformance/ffmpeg.sh; about a minute)
BUILD ?= build
CHECK_BUILD ?= build-check
JOBS ?= $(shell nproc)
ICD_ENV = OCL_ICD_VENDORS=$(CURDIR)/$(BUILD)/vendors

.PHONY: run check check-suites check-engines deps build conformance hashcat ffmpeg
deps:
	@bash .ci/deps

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)

run: build
	$(ICD_ENV) clinfo
	$(ICD_ENV) $(BUILD)/tests/host/host_vecadd

# Every test runs once: a failure counts.
check: deps
	cmake -S . -B $(CHECK_BUILD) -DCMAKE_BUILD_TYPE=Debug -DLOCKSTEP_SANITIZE=ON
	cmake --build $(CHECK_BUILD) -j$(JOBS)
	ctest --test-dir $(CHECK_BUILD) --output-on-failure -j$(JOBS) --timeout 600

# Every suite and host program under both checkers at warp widths 32 and 8,
# the device-side enqueue suite included (tests/device/check_suites.sh;
# `make check` runs the part at width 32).
check-suites: deps
	cmake -S . -B $(CHECK_BUILD) -DCMAKE_BUILD_TYPE=Debug -DLOCKSTEP_SANITIZE=ON
	cmake --build $(CHECK_BUILD) -j$(JOBS)
	LOCKSTEP_CHECK_SUITES=all ctest --test-dir $(CHECK_BUILD) --output-on-failure \
	  -R '^device_check_suites$$' --timeout 7200

# The engine matrix: the tests labelled `engines` (tests/util/engines.sh)
# over the product of engines, warp widths 32 and 8 and 1 and 2 host
# threads, and the engines' differential test over more seeds; `make
# check` runs them in one configuration each, the differential test over
# fewer seeds.
check-engines: deps
	cmake -S . -B $(CHECK_BUILD) -DCMAKE_BUILD_TYPE=Debug -DLOCKSTEP_SANITIZE=ON
	cmake --build $(CHECK_BUILD) -j$(JOBS)
	LOCKSTEP_CHECK_ENGINES=all ctest --test-dir $(CHECK_BUILD) --output-on-failure -j$(JOBS) \
	  -L '^engines$$' --timeout 7200

# piglit's OpenCL suite through the ICD loader; fails on any non-pass not in
# tests/conformance/piglit-expected.txt.
conformance: build
	bash tests/conformance/piglit.sh $(BUILD)

# hashcat's kernel self-test on the device (minutes; skipped without hashcat)
hashcat: build
	cmake -S . -B $(BUILD) -DLOCKSTEP_HASHCAT_TEST=ON
	ctest --test-dir $(BUILD) -L hashcat --output-on-failure

# ffmpeg's OpenCL video filters (images) against pocl and Oclgrind; installs
# the three first.
ffmpeg: build
	bash .ci/deps ffmpeg
	bash tests/conformance/ffmpeg.sh $(BUILD)
