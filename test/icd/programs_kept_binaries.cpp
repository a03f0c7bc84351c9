// Program binaries kept between builds (platform/objects/kept_binaries.hpp): a build of a source
// with options that were built before loads the backend's binary, and gives what a build from the
// source gives. Hidden cases, each run by test/icd/CMakeLists.txt with a cache directory of its own
// (XDG_CACHE_HOME), counting builds from kept binaries (CL_HETERO_PROGRAMS_FROM_KEPT_BINARIES).
#include "cl_test.hpp"
#include "hetero_counters.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>

using cltest::Counters;
using cltest::Env;
using cltest::setArg;

namespace {

namespace fs = std::filesystem;

const char* const kPutSource = R"(
    __kernel void put(__global int* v) {
        int i = get_global_id(0);
        v[i] = VALUE + i * 3;
    })";

cl_ulong fromKept(Env& env) { return Counters::read(env.platform)[CL_HETERO_PROGRAMS_FROM_KEPT_BINARIES]; }

fs::path keptFolder() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    REQUIRE(xdg != nullptr);  // set by the test's environment: a folder of its own
    return fs::path(xdg) / "hetero" / "binaries";
}

std::set<fs::path> keptFiles() {
    std::set<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(keptFolder(), ec))
        if (e.path().extension() == ".bin") files.insert(e.path());
    return files;
}

// `put` of `program` over n work-items (work-groups of 64), `launches` times, each waited for (the
// first launch that would split completes after the variants' build): each element must read
// value + 3i.
void checkPut(Env& env, cl_program program, int value, size_t n = 256, int launches = 1) {
    cl_kernel k = env.kernel(program, "put");
    cl_mem out = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    setArg(k, 0, out);
    const size_t local = 64;
    for (int launch = 0; launch < launches; ++launch) {
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    }
    auto v = env.read<cl_int>(out, n);
    size_t right = 0;
    for (size_t i = 0; i < n; ++i) right += v[i] == value + 3 * static_cast<int>(i);
    CHECK(right == n);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

// The entries made since `before`.
std::vector<fs::path> keptSince(const std::set<fs::path>& before) {
    std::vector<fs::path> made;
    for (const auto& f : keptFiles())
        if (!before.count(f)) made.push_back(f);
    return made;
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// An entry's fields after its first line (kept_binaries.cpp: "<size>:<bytes>" each): key, build
// log, binary, the binary's hash.
std::vector<std::string> entryFields(const std::string& entry) {
    std::vector<std::string> fields;
    size_t pos = entry.find('\n') + 1;
    while (pos < entry.size()) {
        const size_t colon = entry.find(':', pos);
        REQUIRE(colon != std::string::npos);
        const size_t n = std::stoull(entry.substr(pos, colon - pos));
        fields.push_back(entry.substr(colon + 1, n));
        pos = colon + 1 + n;
    }
    return fields;
}

std::string buildLog(Env& env, cl_program p) {
    size_t n = 0;
    REQUIRE(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) == CL_SUCCESS);
    std::string log(n, '\0');
    REQUIRE(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr) == CL_SUCCESS);
    return log;
}

}  // namespace

TEST_CASE("a program built again from the same source and options loads the binary its first build kept",
          "[.kept-binaries]") {
    Env env;
    const std::string source = cltest::nonce("kept") + kPutSource;
    const auto before = keptFiles();
    const cl_ulong k0 = fromKept(env);
    cl_program first = env.build(source, "-DVALUE=7 -cl-kernel-arg-info");
    CHECK(fromKept(env) == k0);  // nothing kept for it yet
    CHECK(keptFiles().size() == before.size() + 1);
    checkPut(env, first, 7);

    cl_program again = env.build(source, "-DVALUE=7 -cl-kernel-arg-info");
    CHECK(fromKept(env) == k0 + 1);
    checkPut(env, again, 7);
    // What the application asks of a program is answered as for the first.
    size_t kernels = 0;
    REQUIRE(clGetProgramInfo(again, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr) == CL_SUCCESS);
    CHECK(kernels == 1);
    cl_program_binary_type type = 0;
    REQUIRE(clGetProgramBuildInfo(again, env.device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    cl_kernel k = env.kernel(again, "put");
    cl_kernel_arg_address_qualifier qualifier = 0;
    REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof qualifier, &qualifier, nullptr) == CL_SUCCESS);
    CHECK(qualifier == CL_KERNEL_ARG_ADDRESS_GLOBAL);
    clReleaseKernel(k);
    // Its binary makes a program of its own.
    size_t size = 0;
    REQUIRE(clGetProgramInfo(again, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
    std::vector<unsigned char> binary(size);
    unsigned char* into = binary.data();
    REQUIRE(clGetProgramInfo(again, CL_PROGRAM_BINARIES, sizeof into, &into, nullptr) == CL_SUCCESS);
    const unsigned char* from = binary.data();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program loaded = clCreateProgramWithBinary(env.context, 1, &env.device, &size, &from, &status, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clBuildProgram(loaded, 1, &env.device, "", nullptr, nullptr) == CL_SUCCESS);
    checkPut(env, loaded, 7);

    // Other options are another build.
    cl_program other = env.build(source, "-DVALUE=8 -cl-kernel-arg-info");
    CHECK(fromKept(env) == k0 + 1);
    checkPut(env, other, 8);
    for (cl_program p : {first, again, loaded, other}) clReleaseProgram(p);
}

TEST_CASE("a program built from a kept binary keeps the log of the build that was kept", "[.kept-binaries]") {
    Env env;
    const std::string mark = "kept-binary-warning-" + std::to_string(std::rand());
    const std::string source = cltest::nonce("kept-log") + "#warning " + mark + "\n" + kPutSource;
    const cl_ulong k0 = fromKept(env);
    cl_program first = env.build(source, "-DVALUE=1");
    REQUIRE(buildLog(env, first).find(mark) != std::string::npos);
    cl_program again = env.build(source, "-DVALUE=1");
    CHECK(fromKept(env) == k0 + 1);
    CHECK(buildLog(env, again).find(mark) != std::string::npos);
    checkPut(env, again, 1);
    clReleaseProgram(first);
    clReleaseProgram(again);
}

TEST_CASE("a program built from a kept binary is built from its source again with other options", "[.kept-binaries]") {
    Env env;
    const std::string source = cltest::nonce("kept-rebuild") + kPutSource;
    const cl_ulong k0 = fromKept(env);
    cl_program first = env.build(source, "-DVALUE=1");
    cl_program again = env.build(source, "-DVALUE=1");
    REQUIRE(fromKept(env) == k0 + 1);
    checkPut(env, again, 1);  // its kernels are released: it may be built again
    REQUIRE(clBuildProgram(again, 1, &env.device, "-DVALUE=2", nullptr, nullptr) == CL_SUCCESS);
    checkPut(env, again, 2);
    char options[64] = {};
    REQUIRE(clGetProgramBuildInfo(again, env.device, CL_PROGRAM_BUILD_OPTIONS, sizeof options, options, nullptr) ==
            CL_SUCCESS);
    CHECK(std::string(options) == "-DVALUE=2");
    // And back: the binary kept for the first options is taken again.
    REQUIRE(clBuildProgram(again, 1, &env.device, "-DVALUE=1", nullptr, nullptr) == CL_SUCCESS);
    CHECK(fromKept(env) == k0 + 2);
    checkPut(env, again, 1);
    clReleaseProgram(first);
    clReleaseProgram(again);
}

TEST_CASE("a source that includes a file is built from the source every time", "[.kept-binaries]") {
    Env env;
    const fs::path folder = keptFolder().parent_path() / ("kept-include-" + std::to_string(std::rand()));
    fs::create_directories(folder);
    auto header = [&](int value) {
        std::ofstream(folder / "kept_value.h") << "#define VALUE " << value << "\n";
    };
    const std::string options = "-I " + folder.string();
    const std::string source = cltest::nonce("kept-include") + "#include \"kept_value.h\"\n" + kPutSource;
    const cl_ulong k0 = fromKept(env);
    header(1);
    cl_program first = env.build(source, options.c_str());
    checkPut(env, first, 1);
    header(2);  // the same source and options now make another program
    cl_program again = env.build(source, options.c_str());
    checkPut(env, again, 2);
    CHECK(fromKept(env) == k0);
    clReleaseProgram(first);
    clReleaseProgram(again);
    fs::remove_all(folder);
}

TEST_CASE("a damaged kept binary is ignored, and kept again by the next build", "[.kept-binaries]") {
    Env env;
    const std::string source = cltest::nonce("kept-damaged") + kPutSource;
    const auto before = keptFiles();
    const cl_ulong k0 = fromKept(env);
    cl_program first = env.build(source, "-DVALUE=5");
    const auto made = keptSince(before);
    REQUIRE(made.size() == 1);
    std::ofstream(made[0], std::ios::trunc) << "not a kept binary";
    cl_program again = env.build(source, "-DVALUE=5");
    CHECK(fromKept(env) == k0);
    checkPut(env, again, 5);
    cl_program third = env.build(source, "-DVALUE=5");
    CHECK(fromKept(env) == k0 + 1);
    checkPut(env, third, 5);
    for (cl_program p : {first, again, third}) clReleaseProgram(p);
}

TEST_CASE("a kept binary that is not the one its build kept is not loaded", "[.kept-binaries]") {
    Env env;
    const std::string source = cltest::nonce("kept-swapped") + kPutSource;
    auto before = keptFiles();
    cl_program six = env.build(source, "-DVALUE=6");
    const auto sixEntry = keptSince(before);
    REQUIRE(sixEntry.size() == 1);
    before = keptFiles();
    cl_program nine = env.build(source, "-DVALUE=9");
    const auto nineEntry = keptSince(before);
    REQUIRE(nineEntry.size() == 1);
    // The entry for VALUE=6 with the binary of VALUE=9 in it: a backend would load it.
    auto fields = entryFields(readFile(sixEntry[0]));
    const auto other = entryFields(readFile(nineEntry[0]));
    REQUIRE(fields.size() == 4);
    REQUIRE(other.size() == 4);
    fields[2] = other[2];
    std::string entry = "hetero kept binary 1\n";
    for (const auto& f : fields) entry += std::to_string(f.size()) + ":" + f;
    std::ofstream(sixEntry[0], std::ios::binary | std::ios::trunc) << entry;
    const cl_ulong k0 = fromKept(env);
    cl_program again = env.build(source, "-DVALUE=6");
    CHECK(fromKept(env) == k0);
    checkPut(env, again, 6);
    for (cl_program p : {six, nine, again}) clReleaseProgram(p);
}

// Run with HETERO_BINARY_CACHE=1000K: entries of about 300 KB each (sources padded with 250 KB of
// comment), so that three fit and a fourth makes the two used least recently go.
TEST_CASE("past the most bytes kept, the entries used least recently go", "[.kept-binaries-bound]") {
    Env env;
    std::error_code ec;
    fs::remove_all(keptFolder(), ec);  // the folder is this case's alone: start empty
    const std::string padding = "/*" + std::string(250 * 1024, ' ') + "*/\n";
    std::vector<std::string> sources;
    for (int i = 0; i < 4; ++i)
        sources.push_back(cltest::nonce(("kept-bound-" + std::to_string(i)).c_str()) + padding + kPutSource);
    auto pause = [] { std::this_thread::sleep_for(std::chrono::milliseconds(50)); };  // file times apart
    // What writers that ended half-way left: one two hours ago, one just now (still being written).
    fs::create_directories(keptFolder());
    const fs::path leftOld = keptFolder() / "0000000000000000.bin.tmp.1.0";
    const fs::path leftNew = keptFolder() / "0000000000000000.bin.tmp.2.0";
    std::ofstream(leftOld) << "half";
    std::ofstream(leftNew) << "half";
    fs::last_write_time(leftOld, fs::file_time_type::clock::now() - std::chrono::hours(2));
    std::vector<cl_program> programs;
    for (int i = 0; i < 3; ++i) {
        programs.push_back(env.build(sources[i], "-DVALUE=2"));
        pause();
    }
    REQUIRE(keptFiles().size() == 3);
    CHECK_FALSE(fs::exists(leftOld));
    CHECK(fs::exists(leftNew));
    fs::remove(leftNew);
    const cl_ulong k0 = fromKept(env);
    programs.push_back(env.build(sources[0], "-DVALUE=2"));  // the first, used again: now the last to go
    REQUIRE(fromKept(env) == k0 + 1);
    pause();
    programs.push_back(env.build(sources[3], "-DVALUE=2"));
    CHECK(keptFiles().size() == 2);
    programs.push_back(env.build(sources[0], "-DVALUE=2"));
    CHECK(fromKept(env) == k0 + 2);  // kept
    programs.push_back(env.build(sources[1], "-DVALUE=2"));
    CHECK(fromKept(env) == k0 + 2);  // gone
    checkPut(env, programs.back(), 2);
    for (cl_program p : programs) clReleaseProgram(p);
}

// Run with HETERO_BINARY_CACHE=off, and with a cache directory that cannot be made: every build is
// from the source, and nothing is kept.
TEST_CASE("builds keep no binary when they may not", "[.kept-binaries-none]") {
    Env env;
    const std::string source = cltest::nonce("kept-none") + kPutSource;
    const auto before = keptFiles();
    const cl_ulong k0 = fromKept(env);
    cl_program first = env.build(source, "-DVALUE=3");
    cl_program again = env.build(source, "-DVALUE=3");
    CHECK(fromKept(env) == k0);
    CHECK(keptFiles() == before);
    checkPut(env, again, 3);
    clReleaseProgram(first);
    clReleaseProgram(again);
}

// Two slots of one PoCL device, every launch split, the variants built by the first launch (run
// whole): PoCL names a program built from a binary by the binary alone, so the second slot's split
// variants, which need a name of their own there (slotOwnBuildOptions), are never taken from a
// kept binary. The application's program and the first slot's variants are, once the first
// program is gone: while it lives, a second build of its variants is named apart on every slot
// (devices/distinct_build.hpp) and built from the source too.
TEST_CASE("the split variants of a second slot of one PoCL device are built from the source", "[.kept-binaries-split]") {
    Env env;
    const std::string source = cltest::nonce("kept-split") + kPutSource;
    const cl_ulong splitBefore = Counters::read(env.platform)[CL_HETERO_LAUNCHES_SPLIT_DISCRETE];
    cl_program first = env.build(source, "-DVALUE=4");
    const cl_ulong k0 = fromKept(env);
    checkPut(env, first, 4, 4096, 2);
    CHECK(fromKept(env) == k0);  // the variants' first build: from the source on both slots
    cl_program alongside = env.build(source, "-DVALUE=4");
    CHECK(fromKept(env) == k0 + 2);  // the application's program, on both slots
    checkPut(env, alongside, 4, 4096, 2);
    CHECK(fromKept(env) == k0 + 2);  // the variants, while the first's live: from the source
    clReleaseProgram(first);
    clReleaseProgram(alongside);
    cl_program again = env.build(source, "-DVALUE=4");
    CHECK(fromKept(env) == k0 + 4);
    checkPut(env, again, 4, 4096, 2);
    CHECK(fromKept(env) == k0 + 5);  // the variants: the first slot's alone
    CHECK(Counters::read(env.platform)[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] >= splitBefore + 3);
    clReleaseProgram(again);
}
