// Which vendor ICD libraries exist, read the way an ICD loader reads them.
#pragma once

#include <string>
#include <vector>

namespace hetero {

// HETERO_BACKENDS (':' or ',' separated) if set, else the union, in order, of /etc/OpenCL/vendors
// (or the directory in HETERO_VENDORS_DIR, for tests), OCL_ICD_VENDORS and OCL_ICD_FILENAMES.
// Duplicates are removed; entries are library names or paths as written in the .icd files.
std::vector<std::string> vendorLibraries();

}  // namespace hetero
