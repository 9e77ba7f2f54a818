# The README's two commands, and the pieces they are made of.
.PHONY: test fuzz tsan format demo demo-check demo-stop build image clean

test:
	bash scripts/test.sh

# Each libFuzzer target for FUZZ_SECONDS (default 60); FUZZ_TARGETS picks some.
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGETS="$(FUZZ_TARGETS)" bash scripts/fuzz.sh

# The threaded parts under ThreadSanitizer (also the last pass of `make test`).
tsan:
	bash scripts/tsan.sh

# Rewrites every C++ file to .clang-format (make test checks it).
format:
	bash scripts/format.sh

demo:
	bash scripts/demo.sh start

# Opens the running demo's dashboard as its printout says (scripts/demo.sh check).
demo-check:
	bash scripts/demo.sh check

demo-stop:
	bash scripts/demo.sh stop

build:
	bash scripts/bootstrap.sh
	cmake --preset release
	cmake --build --preset release

# The OCI image under build/image (deploy/README.md, "The image"), made from the
# Debian archive and the release executables without any image registry, then checked.
image:
	bash scripts/bootstrap.sh
	cmake --preset release
	cmake --build --preset release --target fleetcap-ingest fleetcap-api fleetcap-optimizer fleetcapctl
	bash scripts/image.sh
	bash scripts/check_image.sh

clean:
	rm -rf build
