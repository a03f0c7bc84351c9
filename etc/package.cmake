# The Debian package, `cpack -G DEB` (or the `package` target) in a built tree: what `cmake --install`
# installs — the ICD library, its vendor file in /etc/OpenCL/vendors (which registers Hetero with
# the ICD loader for every program, as pocl-opencl-icd does for PoCL), the configuration file, the
# extension header and hetero-transform.
#
# The vendor file and the library's default configuration path are fixed when the tree is
# configured, from CMAKE_INSTALL_PREFIX, so the package installs under that same prefix. Configure
# with -DCMAKE_INSTALL_PREFIX=/usr for a package that installs where Debian's own do (the library
# in /usr/lib/<multiarch>, the configuration in /etc); .ci/run and etc/deb-check.sh do.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME hetero-opencl-icd)
set(CPACK_PACKAGE_VENDOR Hetero)
set(CPACK_PACKAGE_CONTACT "Hetero developers <hetero@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OpenCL platform that shows the CPU and the GPUs as one device")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}
 Hetero is an OpenCL ICD: programs see one platform, \"Hetero\", with one device that
 stands for the machine's NVIDIA GPU and its CPU (through PoCL). Kernel launches run
 on the GPU or are split between the devices, with the results one device gives.")
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_STRIP_FILES ON)
# Library dependencies (libclang, libstdc++) from dpkg-shlibdeps; an application needs an ICD
# loader, and Hetero needs a backend to wrap: PoCL for the CPU (the NVIDIA driver's ICD for the GPU).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ocl-icd-libopencl1 | libopencl1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd")
set(CPACK_DEBIAN_PACKAGE_PROVIDES "opencl-icd")
# The files under /etc are the administrator's: dpkg keeps their edits on upgrade.
file(WRITE ${CMAKE_BINARY_DIR}/debian/conffiles
  "/etc/OpenCL/vendors/hetero.icd\n${CMAKE_INSTALL_FULL_SYSCONFDIR}/hetero.conf\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/debian/conffiles)
include(CPack)
