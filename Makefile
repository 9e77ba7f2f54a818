# The README's two commands, and the pieces they are made of.
.PHONY: test fuzz tsan format demo demo-stop build clean

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

demo-stop:
	bash scripts/demo.sh stop

build:
	bash scripts/bootstrap.sh
	cmake --preset release
	cmake --build --preset release

clean:
	rm -rf build
