// Catch2 runner of the transform suite: the corpus tests are registered before the session starts.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

namespace corpus {
void registerCorpusTests();
}

int main(int argc, char* argv[])
{
    corpus::registerCorpusTests();
    return Catch::Session().run(argc, argv);
}
