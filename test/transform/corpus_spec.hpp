// The corpus description: what each //@ line of a corpus program says (see corpus/README.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace corpus {

enum class ArgKind { Global, Constant, Local, Value, Image };

struct ArgSpec {
    std::string name;
    ArgKind kind = ArgKind::Value;
    // Global/Constant buffers.
    std::string type;            // element type as written, e.g. "float4"
    size_t scalarSize = 0;       // host scalar size of that type (float4 -> 4)
    bool isFloat = false;        // float/double scalars (for initialisation)
    bool isSigned = false;
    unsigned width = 1;          // vector width
    size_t count = 0;            // elements of `type`
    std::string init;            // rand | randint:lo:hi | zero | iota | const:V
    bool read = false, write = false;
    bool pointeeConst = false, isRestrict = false;
    bool elemAsserted = true;    // false for "elem=?"
    bool readAsserted = true;    // false for "read=?" (a conservative 'may read' is accepted)
    size_t elem = 0;             // expected elementSize
    std::vector<size_t> storeSizes;  // expected, sorted
    // Local: byte size. Value: packed bytes.
    size_t localBytes = 0;
    std::vector<unsigned char> valueBytes;

    size_t bufferBytes() const { return scalarSize * width * count; }
};

struct NDRangeSpec {
    unsigned dims = 1;
    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
};

struct KernelSpec {
    std::string name;
    std::string file;            // corpus file name, e.g. "gemm.cl"
    std::string testId;          // unique id for test names: kernel name, or file stem + kernel
    bool hasNDRange = false;
    NDRangeSpec ndrange;
    std::vector<ArgSpec> args;
    bool expectSplittable = false;
    std::vector<std::string> reasonKeywords;  // any one must occur in the reason (refused)
    std::vector<std::string> uses;            // flag names
    bool requiresNonUniform = false;             // the launch needs non-uniform work-groups
    bool requiresCl20 = false;                   // the program needs a device accepting -cl-std=CL2.0
    int schedules = 0;                        // 0: default

    bool uses_(const std::string& flag) const;
};

struct ProgramSpec {
    std::string file;                 // e.g. "gemm.cl"
    std::vector<std::string> sources; // source strings in program order
    std::string options;
    std::vector<KernelSpec> kernels;
};

// Reads one corpus program; throws std::runtime_error with file:line on a malformed //@ line.
ProgramSpec loadProgram(const std::string& corpusDir, const std::string& fileName);
// The same from the program's text (fileName only names it).
ProgramSpec parseProgram(const std::string& corpusDir, const std::string& fileName, const std::string& text);
// Every *.cl directly in corpusDir, sorted by name.
std::vector<ProgramSpec> loadCorpus(const std::string& corpusDir);

// Size of an OpenCL scalar type name ("float" -> 4), 0 if unknown.
size_t scalarTypeSize(const std::string& scalar);

}  // namespace corpus
