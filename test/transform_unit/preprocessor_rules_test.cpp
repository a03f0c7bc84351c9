// The preprocessor around split copies (transform/src/copy_rules.cpp): what the lexer sees, which
// kernels are refused because their copies could not be compiled as the original, the directives
// and line numbers placed before the copies, and rewrites of such programs building on PoCL.
// Bit-exact runs of these cases are in test/transform/corpus/preproc_*.cl.
#include "directives.hpp"
#include "transform/transform.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

namespace tf = hetero::transform;
namespace td = hetero::transform::detail;

namespace {

tf::ProgramAnalysis analyzeUncached(const std::string& source, const std::string& options = "") {
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    return tf::analyze({source}, options);
}

// The verdict on one kernel; "" when splittable, else the reason.
std::string verdict(const std::string& source, const std::string& kernel, const std::string& options = "") {
    const tf::ProgramAnalysis a = analyzeUncached(source, options);
    INFO(a.log);
    REQUIRE(a.parsed);
    const tf::KernelAnalysis* k = a.find(kernel);
    REQUIRE(k != nullptr);
    return k->splittable ? std::string() : k->reason;
}

tf::Variants variantsOf(const std::string& source, const std::string& options = "") {
    const tf::ProgramAnalysis a = analyzeUncached(source, options);
    return tf::makeVariants({source}, options, a);
}

// The lines right before "...NAME(" in the variants' text, i.e. what precedes a copy.
std::string textBefore(const std::string& source, const std::string& name, size_t lines) {
    const size_t at = source.find(name + "(");
    REQUIRE(at != std::string::npos);
    size_t begin = source.rfind('\n', at);
    for (size_t i = 0; i < lines && begin != std::string::npos && begin > 0; ++i) begin = source.rfind('\n', begin - 1);
    return source.substr(begin == std::string::npos ? 0 : begin + 1, at - (begin == std::string::npos ? 0 : begin + 1));
}

}  // namespace

TEST_CASE("transform_unit.preprocessor.lexer_directives_and_identifiers") {
    const std::string text =
        "#define A 1 /* spans\n lines */ + 2\n"        // a comment continues the directive
        "int x = A; // #define NOT_ONE\n"
        "char* s = \"#define NOT_TWO\";\n"
        "  #  if defined(B) \\\n && C\n"                 // blanks before '#', a line splice
        "#undef D\n"
        "#else\n"
        "#endif\n"
        "/* c */ #pragma unroll 4\n"                    // a comment before '#' still starts a directive
        "# 12 \"named.cl\"\n"
        "#line 7\n"
        "#\n"
        "y = #z;\n";                                     // not at a line's start: no directive
    const td::Lexed lx = td::lex(text);
    REQUIRE(lx.directives.size() == 9);
    CHECK(lx.directives[0].name == "define");
    CHECK(lx.directives[0].macro == "A");
    CHECK(lx.directives[0].rest == "1 + 2");
    CHECK(text.substr(lx.directives[0].end, 1) == "\n");
    CHECK(lx.lineOf(lx.directives[0].end) == 2);
    CHECK(lx.directives[1].name == "if");
    CHECK(lx.directives[1].rest == "defined(B) && C");
    CHECK(lx.directives[2].name == "undef");
    CHECK(lx.directives[2].depth == 1);
    CHECK(lx.directives[3].name == "else");
    CHECK(lx.directives[3].depth == 0);
    CHECK(lx.directives[5].name == "pragma");
    CHECK(lx.directives[5].rest == "unroll 4");
    CHECK(lx.directives[6].name == "line");
    CHECK(lx.directives[6].macro == "12");
    CHECK(lx.directives[6].rest == "\"named.cl\"");
    CHECK(lx.directives[7].macro == "7");
    CHECK(lx.directives[8].name.empty());
    std::vector<std::string> ids;
    for (const auto& id : lx.identifiers) ids.push_back(id.name);
    for (const char* hidden : {"NOT_ONE", "NOT_TWO", "spans", "lines"})
        CHECK(std::find(ids.begin(), ids.end(), hidden) == ids.end());
    for (const char* seen : {"x", "A", "s", "B", "C", "D", "y", "z"})
        CHECK(std::find(ids.begin(), ids.end(), seen) != ids.end());
}

// Old Mac line endings: clang ends a line at a carriage return alone, so the text the lexer gets
// must too (withLineFeeds), or a whole program is one line to it and an #undef inside a kernel goes
// unseen (the transform fuzzer found a kernel whose split copies then computed with the option's
// macro undefined).
TEST_CASE("transform_unit.preprocessor.lone_carriage_returns_end_lines") {
    const std::string text = "#define A 1\r#ifdef A\rint x = A;\r#undef A\r#endif\r#define B 1 \\\r + 2\r";
    const std::string fed = td::withLineFeeds(text);
    REQUIRE(fed.size() == text.size());  // offsets stay valid
    const td::Lexed lx = td::lex(fed);
    REQUIRE(lx.directives.size() == 5);
    CHECK(lx.directives[0].name == "define");
    CHECK(lx.directives[0].rest == "1");
    CHECK(lx.directives[1].name == "ifdef");
    CHECK(lx.directives[2].name == "undef");
    CHECK(lx.directives[2].macro == "A");
    CHECK(lx.directives[2].depth == 1);
    CHECK(lx.directives[3].name == "endif");
    CHECK(lx.directives[4].macro == "B");
    CHECK(lx.directives[4].rest == "1 + 2");  // a backslash before a lone carriage return splices
    CHECK(lx.lineOf(lx.directives[2].begin) == 4);
}

// Every scanner of the program text, not only the lexer, reads it with line feeds: a program with
// old Mac line endings gets the analysis and the variants of the same program with line feeds (a
// line comment scanned to the next line feed would swallow the kernels after it).
TEST_CASE("transform_unit.preprocessor.old_mac_line_endings_transform_as_line_feeds") {
    const std::string lf =
        "#define SCALE 3 // the factor\n"
        "// a comment before the first kernel\n"
        "__kernel void first(__global int* o) { o[get_global_id(0)] = SCALE; }\n"
        "// a comment between the kernels\n"
        "#undef SCALE\n"
        "#define SCALE 5\n"
        "__kernel void second(__global int* o) { // after the brace\n"
        "  o[get_global_id(0)] = SCALE + 1;\n"
        "}\n";
    std::string cr = lf;
    std::replace(cr.begin(), cr.end(), '\n', '\r');
    const tf::ProgramAnalysis a = analyzeUncached(lf), b = analyzeUncached(cr);
    REQUIRE(a.parsed);
    REQUIRE(b.parsed);
    REQUIRE(a.kernels.size() == 2);
    REQUIRE(b.kernels.size() == 2);
    for (size_t k = 0; k < 2; ++k) {
        CHECK(b.kernels[k].name == a.kernels[k].name);
        CHECK(b.kernels[k].splittable == a.kernels[k].splittable);
    }
    CHECK(a.kernels[0].splittable);
    CHECK(a.kernels[1].splittable);
    const tf::Variants va = tf::makeVariants({lf}, "", a), vb = tf::makeVariants({cr}, "", b);
    CHECK(vb.log == va.log);
    std::string withLineFeeds = vb.source;  // the copies may keep the program's own line ends
    std::replace(withLineFeeds.begin(), withLineFeeds.end(), '\r', '\n');
    CHECK(withLineFeeds == va.source);
}

TEST_CASE("transform_unit.preprocessor.refused_kernels_and_their_reasons") {
    const std::string body = "(__global int* o) { o[get_global_id(0)] = (int)get_group_id(0)";
    auto kernel = [&](const std::string& name, const std::string& inside) {
        return "__kernel void " + name + body + ";\n" + inside + "}\n";
    };
    // Directives inside a kernel whose effect outlasts it.
    CHECK_THAT(verdict(kernel("k", "#include \"unit_body_fragment.h\"\n"), "k", std::string("-I ") + HETERO_TRANSFORM_UNIT_DATA),
               Catch::Contains("#include"));
    CHECK_THAT(verdict(kernel("k", "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"), "k"),
               Catch::Contains("OPENCL EXTENSION"));
    CHECK_THAT(verdict(kernel("k", "#line 900\n"), "k"), Catch::Contains("#line"));
    CHECK(verdict(kernel("k", "#pragma unroll\nfor (int i = 0; i < 4; i++) o[i] += i;\n"), "k").empty());
    // A kernel whose end lies in one branch of a conditional and whose copy would break it.
    CHECK_THAT(verdict("__kernel void k(__global int* o) {\n#ifdef X\n o[0] = 1; }\n#else\n o[0] = 2; }\n#endif\n", "k"),
               Catch::Contains("not balanced"));
    // Macros whose state before the kernel is not known on every device.
    CHECK_THAT(verdict(kernel("k", "#undef M_PI_F\n"), "k"), Catch::Contains("M_PI_F"));
    CHECK_THAT(verdict(kernel("k", "#undef cl_khr_fp64\n"), "k"), Catch::Contains("predefine"));
    CHECK_THAT(verdict("#ifdef __IMAGE_SUPPORT__\n#define V 1\n#endif\n" + kernel("k", "#undef V\n"), "k"),
               Catch::Contains("under #if"));
    CHECK(verdict("#define V 1\n" + kernel("k", "#undef V\n"), "k").empty());
    CHECK(verdict(kernel("k", "#define MINE 2\n#undef MINE\n"), "k").empty());
    CHECK(verdict(kernel("k", "#undef OPT\n"), "k", "-DOPT=3").empty());
    // Values that depend on where or when the copy is compiled.
    CHECK_THAT(verdict(kernel("k", "o[1] = __DATE__[0];\n"), "k"), Catch::Contains("__DATE__"));
    CHECK_THAT(verdict("#define WHERE __BASE_FILE__\n" + kernel("k", "o[1] = WHERE[0];\n"), "k"),
               Catch::Contains("__BASE_FILE__"));
    CHECK(verdict("#line 10 \"named.cl\"\n" + kernel("k", "o[1] = __FILE__[0];\n"), "k").empty());
    CHECK_THAT(verdict("#ifdef X\n#line 10\n#endif\n" + kernel("k", "o[1] = __LINE__;\n"), "k"),
               Catch::Contains("#line directive under #if"));
    // _Pragma through a macro: loop hints are local, an extension switch is not.
    CHECK(verdict("#define UNROLL _Pragma(\"unroll\")\n" +
                      kernel("k", "UNROLL for (int i = 0; i < 4; i++) o[i] += i;\n"), "k")
              .empty());
    CHECK_THAT(verdict("#define EXT _Pragma(\"OPENCL EXTENSION cl_khr_fp16 : enable\")\n" + kernel("k", "EXT\n"), "k"),
               Catch::Contains("_Pragma"));
    // Names the rewritten copies define or use.
    CHECK_THAT(verdict("#define barrier(f) work_group_barrier(f)\n" + kernel("k", ""), "k"),
               Catch::Contains("barrier"));
    CHECK_THAT(verdict(kernel("k", ""), "k", "-Dsb=0"), Catch::Contains("sb"));  // a vector component there
    // The preamble's own names are reserved: ordinary -D options do not reach it.
    CHECK(verdict(kernel("k", ""), "k", "-DL=16 -Dd=2 -Ds=1 -Dlaunch=0").empty());
}

TEST_CASE("transform_unit.preprocessor.header_helpers") {
    const std::string data = HETERO_TRANSFORM_UNIT_DATA;
    const std::string options = "-I " + data;
    const std::string program = "#include \"unit_preproc_clean.h\"\n#include \"unit_preproc_late.h\"\n"
                                "__kernel void clean(__global int* o) { o[get_global_id(0)] = unit_clean(); }\n"
                                "__kernel void late(__global int* o) { o[get_global_id(0)] = unit_late(); }\n"
                                "__kernel void named(__global int* o) { o[get_global_id(0)] = unit_named(); }\n";
    CHECK(verdict(program, "clean", options).empty());
    CHECK_THAT(verdict(program, "late", options), Catch::Contains("UNIT_LATE"));
    CHECK_THAT(verdict(program, "named", options), Catch::Contains("__FILE__"));
}

TEST_CASE("transform_unit.preprocessor.copies_carry_lines_and_restored_macros") {
    const std::string source = "#define VALUE 2 /* a comment\n   over two lines */\n"  // lines 1-2
                               "__kernel void k(__global int* o)\n"                    // line 3
                               "{\n"
                               "    o[get_global_id(0)] = VALUE + __LINE__;\n"
                               "#undef VALUE\n"
                               "}\n"
                               "#line 500\n"
                               "__kernel void after(__global int* o) { o[get_global_id(0)] = __LINE__; }\n"  // 500
                               "int tail(void) { return __LINE__; }\n";                                       // 501
    const tf::Variants v = variantsOf(source, "-DUNUSED");
    INFO(v.log << v.source);
    REQUIRE(v.source.find("k__hetero_chunk(") != std::string::npos);
    const std::string restore = "#undef VALUE\n#define VALUE 2 /* a comment\n   over two lines */\n";
    CHECK_THAT(textBefore(v.source, "k__hetero_chunk", 5), Catch::EndsWith(restore + "#line 3\n__kernel void "));
    CHECK_THAT(textBefore(v.source, "k__hetero_abort", 5), Catch::EndsWith(restore + "#line 3\n__kernel void "));
    CHECK_THAT(textBefore(v.source, "after__hetero_chunk", 1), Catch::EndsWith("#line 500\n__kernel void "));
    // After the copies of `after`, the program goes on at its own line 500 (the rest of that line).
    const size_t lastCopy = v.source.find("after__hetero_abort(");
    REQUIRE(lastCopy != std::string::npos);
    CHECK(v.source.find("#line 500\n\nint tail(void)", lastCopy) != std::string::npos);
}

TEST_CASE("transform_unit.preprocessor.line_breaks_inside_replaced_text_are_kept") {
    const std::string source = "__kernel void k(\n    void\n)\n{\n}\n"
                               "size_t h(\n void\n) { return get_group_id(0) + __LINE__; }\n"
                               "__kernel void user(__global int* o) { o[0] = (int)h(); }\n";
    const tf::Variants v = variantsOf(source);
    INFO(v.source);
    std::smatch m;
    REQUIRE(std::regex_search(v.source, m, std::regex("#line 1\n__kernel void k__hetero_chunk\\(ulong16 __hetero_L\n\n\\)")));
    REQUIRE(std::regex_search(v.source, m, std::regex("#line 6\nsize_t h__hetero_chunk\\(ulong16 __hetero_L\n\n\\)")));
}
