#!/bin/bash
# The install rules and the CMake package: install the build into a
# scratch prefix, check that everything the .deb is to hold is there and
# that the installed program finds its plugins, then build and test
# tests/cmake_package against that prefix with find_package(rdmascn).
#   cmake_package.sh BUILD-DIR SOURCE-DIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
build=$1 src=$2
stage=$tmp/stage

cmake --install "$build" --prefix "$stage" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1; }

for f in bin/rdmascn lib/rdmascn/plugins/mlx5.so \
	libexec/rdmascn/rdmascn-softroce \
	share/bash-completion/completions/rdmascn \
	share/rdmascn/rdmascn.schema.json share/rdmascn/rdmascn-run.schema.json \
	include/rdmascn/plugin.h include/rdmascn/kind.h include/rdmascn/value.h \
	lib/cmake/rdmascn/rdmascnConfig.cmake \
	lib/cmake/rdmascn/rdmascnConfigVersion.cmake \
	share/doc/rdmascn/README.md share/doc/rdmascn/examples/rc_write.yaml; do
	n=$((n + 1))
	[ -e "$stage/$f" ] || fail "not installed: $f"
done
# Man pages only where pandoc built them, gzipped as Debian wants them;
# and the plugin example rdmascn-plugin(7) names.
if [ -d "$build/share/man" ]; then
	for f in man1/rdmascn.1 man5/rdmascn-scenario.5 man7/rdmascn-plugin.7; do
		n=$((n + 1))
		[ -e "$stage/share/man/$f.gz" ] ||
			fail "not installed: share/man/$f.gz"
		[ ! -e "$stage/share/man/$f" ] ||
			fail "installed uncompressed: share/man/$f"
	done
fi
for f in fake.c fake.map; do
	n=$((n + 1))
	[ -e "$stage/share/doc/rdmascn/examples/plugin/$f" ] ||
		fail "not installed: share/doc/rdmascn/examples/plugin/$f"
done

# The installed program finds the installed plugin, beside itself.
n=$((n + 1))
RDMASCN_PLUGIN_DIR='' "$stage/bin/rdmascn" plugins >"$tmp/plugins" 2>&1
grep -q "^mlx5 .*$stage/lib/rdmascn/plugins/mlx5.so" "$tmp/plugins" ||
	{ cat "$tmp/plugins"; fail "installed rdmascn does not load its mlx5.so"; }

# A lab's project: one line a suite.  Both calls register both files.
n=$((n + 1))
if ! cmake -S "$src/tests/cmake_package" -B "$tmp/proj" \
	-DCMAKE_PREFIX_PATH="$stage" >"$tmp/proj.log" 2>&1; then
	cat "$tmp/proj.log"
	fail "configure tests/cmake_package against the install"
elif ! grep -q "rdmascn [0-9.]*: $stage/bin/rdmascn" "$tmp/proj.log"; then
	cat "$tmp/proj.log"
	fail "find_package(rdmascn) did not find $stage"
else
	ctest --test-dir "$tmp/proj" --output-on-failure >"$tmp/ctest.log" 2>&1 ||
		{ cat "$tmp/ctest.log"; fail "ctest in tests/cmake_package"; }
	ctest --test-dir "$tmp/proj" -N | sed -n 's/^ *Test *#[0-9]*: //p' |
		sort >"$tmp/tests"
	printf '%s\n' rdmascn.cq rdmascn.pd real.cq real.pd valid.cq valid.pd |
		diff -u - "$tmp/tests" ||
		fail "tests/cmake_package registered other tests (above)"
	grep -q '100% tests passed, 0 tests failed out of 6' "$tmp/ctest.log" ||
		{ cat "$tmp/ctest.log"; fail "not 6 of 6 passed"; }
fi

# Real runs on a host without any RDMA device: rdmascn exits 3 saying
# so, and the tests count as skipped, not failed (where a device is,
# they ran above).
if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	n=$((n + 1))
	"$stage/bin/rdmascn" run "$src/tests/cmake_package/scenarios/pd.yaml" \
		>"$tmp/nodev" 2>&1
	rc=$?
	if [ $rc -ne 3 ] ||
	   ! grep -q '^rdmascn: no RDMA device found\.$' "$tmp/nodev"; then
		cat "$tmp/nodev"
		fail "no device: exit $rc, not 3 with 'rdmascn: no RDMA device found.'"
	fi
	n=$((n + 1))
	sed -n '/did not run:/,$p' "$tmp/ctest.log" |
		grep -Eo '(real|rdmascn|valid)\.[a-z]+ \(Skipped\)' |
		sort >"$tmp/skipped"
	printf '%s\n' 'real.cq (Skipped)' 'real.pd (Skipped)' |
		diff -u - "$tmp/skipped" ||
		fail "no device: the real runs are not (all, only) skipped (above)"
fi

# The function's errors: a directory without scenarios, an unknown word.
for bad in "DIRECTORY nowhere" "DIRECTORY scenarios BOGUS 1" \
	"DIRECTORY scenarios VERB plan DEVICE mlx5_0"; do
	n=$((n + 1))
	mkdir -p "$tmp/bad/scenarios"
	touch "$tmp/bad/scenarios/x.yaml"
	cat >"$tmp/bad/CMakeLists.txt" <<-END
		cmake_minimum_required(VERSION 3.25)
		project(bad LANGUAGES NONE)
		enable_testing()
		find_package(rdmascn REQUIRED)
		rdmascn_add_scenarios($bad)
		END
	if cmake -S "$tmp/bad" -B "$tmp/bad/b" -DCMAKE_PREFIX_PATH="$stage" \
		>"$tmp/bad.log" 2>&1; then
		fail "rdmascn_add_scenarios($bad) configured"
	elif ! grep -q 'rdmascn_add_scenarios: ' "$tmp/bad.log"; then
		cat "$tmp/bad.log"
		fail "rdmascn_add_scenarios($bad) failed without saying why"
	fi
	rm -rf "$tmp/bad"
done

finish
