# Every dependency is a Debian package found through pkg-config.  A missing
# one stops the configure step and names the package to install.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
	message(FATAL_ERROR "pkg-config not found: apt-get install pkg-config")
endif()

set(RDMASCN_MISSING "")
function(rdmascn_dep target module debpkg)
	pkg_check_modules(${target} QUIET IMPORTED_TARGET GLOBAL ${module})
	if(NOT ${target}_FOUND)
		set(RDMASCN_MISSING "${RDMASCN_MISSING} ${debpkg}" PARENT_SCOPE)
		message(SEND_ERROR "${module} not found (pkg-config): apt-get install ${debpkg}")
	endif()
endfunction()

rdmascn_dep(IBVERBS libibverbs libibverbs-dev)
rdmascn_dep(RDMACM librdmacm librdmacm-dev)
rdmascn_dep(MLX5 libmlx5 libibverbs-dev)
rdmascn_dep(YAML yaml-0.1 libyaml-dev)
rdmascn_dep(CYAML libcyaml libcyaml-dev)
rdmascn_dep(UV libuv libuv1-dev)
rdmascn_dep(JSONC json-c libjson-c-dev)
rdmascn_dep(XML2 libxml-2.0 libxml2-dev)
# The rendezvous's HMAC-SHA-256 (docs/nodes.md, "Who can join"); its
# headers only: dlopen()ed by the soname they name (engine/rdv/rdv_auth.c).
rdmascn_dep(NETTLE nettle nettle-dev)
# impair: and link: steps, netem and link state on a software device's
# netdev (docs/impairments.md); libibverbs depends on its runtime.
rdmascn_dep(NLROUTE libnl-route-3.0 libnl-route-3-dev)

# Optional: the rendezvous through a launcher's PMIx server (docs/nodes.md,
# "PMIx").  Without it, --rendezvous pmix says the build lacks it.
pkg_check_modules(PMIX QUIET IMPORTED_TARGET GLOBAL pmix)
if(PMIX_FOUND)
	message(STATUS "PMIx ${PMIX_VERSION}: --rendezvous pmix")
else()
	message(STATUS "PMIx not found (apt-get install libpmix-dev): the "
		"TCP rendezvous only")
endif()

if(RDMASCN_MISSING)
	message(FATAL_ERROR "missing dependencies; install them with:\n  apt-get install${RDMASCN_MISSING}")
endif()
