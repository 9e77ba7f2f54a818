# The README's two commands, and the pieces they are made of.
.PHONY: test demo demo-stop build clean

test:
	bash scripts/test.sh

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
