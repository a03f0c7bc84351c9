// transform.analysis.<kernel>: the library's analysis of a corpus kernel matches its //@ lines.
#include "corpus_fixture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>

namespace corpus {
namespace {

namespace tf = hetero::transform;

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

struct Flag {
    const char* name;
    bool tf::KernelAnalysis::*member;
};

const Flag flags[] = {
    {"barrier", &tf::KernelAnalysis::usesBarrier},
    {"localmem", &tf::KernelAnalysis::usesLocalMemory},
    {"localatomics", &tf::KernelAnalysis::usesLocalAtomics},
    {"globalatomics", &tf::KernelAnalysis::usesGlobalAtomics},
    {"printf", &tf::KernelAnalysis::usesPrintf},
    {"images", &tf::KernelAnalysis::usesImages},
    {"programscope", &tf::KernelAnalysis::usesProgramScopeVariables},
    {"storeinloop", &tf::KernelAnalysis::storesBeforeLoopEnds},
};

void checkParam(const ArgSpec& arg, const tf::ParamInfo& param, bool checkAccess)
{
    INFO("parameter " << arg.name << " (" << param.typeSpelling << ")");
    CHECK(param.name == arg.name);
    switch (arg.kind) {
    case ArgKind::Global:
    case ArgKind::Constant:
        CHECK(param.isPointer);
        CHECK(param.addressSpace == (arg.kind == ArgKind::Global ? tf::AddressSpace::Global : tf::AddressSpace::Constant));
        CHECK(param.isRestrict == arg.isRestrict);
        if (arg.kind == ArgKind::Global)
            CHECK(param.pointeeConst == arg.pointeeConst);
        if (arg.elemAsserted)
            CHECK(param.elementSize == arg.elem);
        if (checkAccess) {
            if (arg.readAsserted)
                CHECK(param.mayRead == arg.read);
            CHECK(param.mayWrite == arg.write);
            std::vector<size_t> stores = param.storeSizes;
            std::sort(stores.begin(), stores.end());
            CHECK(stores == arg.storeSizes);
        }
        break;
    case ArgKind::Local:
        CHECK(param.isPointer);
        CHECK(param.addressSpace == tf::AddressSpace::Local);
        break;
    case ArgKind::Value:
        CHECK_FALSE(param.isPointer);
        CHECK_FALSE(param.isImage);
        break;
    case ArgKind::Image:
        CHECK(param.isImage);
        break;
    }
}

}  // namespace

void checkAnalysis(const ProgramSpec& program, const KernelSpec& spec)
{
    const tf::ProgramAnalysis& analysis = analysisOf(program);
    INFO("program " << program.file << ", analysis log:\n" << analysis.log);
    REQUIRE(analysis.parsed);
    const tf::KernelAnalysis* kernel = analysis.find(spec.name);
    REQUIRE(kernel != nullptr);
    INFO("reason: " << kernel->reason);
    if (spec.expectSplittable) {
        CHECK(kernel->splittable);
        CHECK(kernel->reason.empty());
    } else {
        CHECK_FALSE(kernel->splittable);
        std::string reason = lower(kernel->reason);
        bool named = std::any_of(spec.reasonKeywords.begin(), spec.reasonKeywords.end(),
                                 [&](const std::string& word) { return reason.find(lower(word)) != std::string::npos; });
        CHECK(named);
    }
    for (const Flag& flag : flags) {
        INFO("flag " << flag.name);
        bool expected = spec.uses_(flag.name);
        if (spec.expectSplittable)
            CHECK(kernel->*flag.member == expected);
        else if (expected)
            CHECK(kernel->*flag.member);
    }
    REQUIRE(kernel->params.size() == spec.args.size());
    for (size_t i = 0; i < spec.args.size(); i++)
        checkParam(spec.args[i], kernel->params[i], spec.expectSplittable);
}

}  // namespace corpus
