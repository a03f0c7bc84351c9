// Registers, for every kernel of the corpus, one Catch test per check, so that each shows up in
// CTest under its own name: transform.analysis.<id>, and for splittable kernels
// transform.variants_compile.<id> and transform.differential.<id>.
#include "cl_env.hpp"
#include "corpus_fixture.hpp"

#include <catch2/catch.hpp>

#include <deque>
#include <functional>
#include <set>

namespace corpus {
namespace {

class CorpusCheck : public Catch::ITestInvoker {
public:
    explicit CorpusCheck(std::function<void()> body) : body_(std::move(body)) {}
    void invoke() const override { body_(); }

private:
    std::function<void()> body_;
};

void addTest(const std::string& name, const std::string& tags, std::function<void()> body)
{
    static std::deque<std::string> names;  // Catch copies them; kept for the StringRefs' sake
    names.push_back(name);
    names.push_back(tags);
    Catch::AutoReg(new CorpusCheck(std::move(body)), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                   Catch::NameAndTags{names[names.size() - 2], names.back()});
}

// What the device lacks: kernels needing it get only their analysis test.
struct DeviceSupport {
    bool nonUniform = false, cl20 = false;
};

DeviceSupport deviceSupport()
{
    DeviceSupport support;
    try {
        support.nonUniform = cltest::poclDevice().nonUniformWorkGroups;
        support.cl20 = cltest::poclDevice().acceptsCl20;
    } catch (const std::exception&) {
    }
    return support;
}

}  // namespace

void registerCorpusTests()
{
    const std::vector<ProgramSpec>* programs = nullptr;
    try {
        programs = &allPrograms();
    } catch (const std::exception& error) {
        std::string message = error.what();
        addTest("transform.corpus.spec_parses", "[transform]", [message] { FAIL(message); });
        return;
    }
    const DeviceSupport device = deviceSupport();
    for (const ProgramSpec& program : *programs) {
        for (const KernelSpec& kernel : program.kernels) {
            const ProgramSpec* p = &program;
            const KernelSpec* k = &kernel;
            addTest("transform.analysis." + kernel.testId, "[transform][analysis]", [p, k] { checkAnalysis(*p, *k); });
            if (!kernel.expectSplittable || (kernel.requiresCl20 && !device.cl20))
                continue;
            addTest("transform.variants_compile." + kernel.testId, "[transform][variants]",
                    [p, k] { checkVariantsCompile(*p, *k); });
            // PoCL 3.1 and 5 reject non-uniform NDRanges: the original launch itself cannot run there.
            if (!kernel.requiresNonUniform || device.nonUniform)
                addTest("transform.differential." + kernel.testId, "[transform][differential]",
                        [p, k] { checkDifferential(*p, *k); });
        }
    }
}

}  // namespace corpus

TEST_CASE("transform.corpus.is_complete", "[transform]")
{
    size_t splittable = 0, refused = 0;
    std::set<std::string> ids;
    for (const corpus::ProgramSpec& program : corpus::allPrograms()) {
        INFO(program.file);
        CHECK_FALSE(program.kernels.empty());
        for (const corpus::KernelSpec& kernel : program.kernels) {
            INFO(kernel.name);
            CHECK(ids.insert(kernel.testId).second);
            if (kernel.expectSplittable) {
                splittable++;
                CHECK(kernel.hasNDRange);
            } else {
                refused++;
                CHECK_FALSE(kernel.reasonKeywords.empty());
            }
        }
    }
    CHECK(splittable + refused >= 30);
    CHECK(refused >= 5);
}
