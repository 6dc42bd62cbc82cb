# Run by cpack (CPACK_PRE_BUILD_SCRIPTS) in the staging directory, before
# CPackDeb runs dpkg-shlibdeps there: a debian/shlibs.local that it reads
# first, and that CPackDeb removes with its debian/ when it is done.
#
# libmd0's symbols file gives every symbol the version 0.0.0, which
# dpkg-shlibdeps turns into "libmd0 (>= 0.0.0)": a constraint that
# constrains nothing.  Every libmd0 has the SHA-256 functions the
# rendezvous uses, so the honest Depends is libmd0 without a version.
file(WRITE "${CPACK_TEMPORARY_DIRECTORY}/debian/shlibs.local"
	"libmd 0 libmd0\n")
