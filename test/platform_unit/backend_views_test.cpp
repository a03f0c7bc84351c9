// The release order of backend views (platform/memory/backend_views.hpp): a view whose object is
// gone is released only once no view made after it overlaps it.
#include "platform/memory/backend_views.hpp"

#include <catch2/catch.hpp>

namespace {
// Stand-ins for backend handles: only compared, never called.
cl_mem handle(int n) { return reinterpret_cast<cl_mem>(static_cast<uintptr_t>(0x1000 * n)); }
using List = std::vector<cl_mem>;
}  // namespace

TEST_CASE("an older view overlapping a newer one waits for it", "[views]") {
    hetero::BackendViews views;
    views.add(handle(1), 0, 100);
    views.add(handle(2), 50, 150);
    CHECK(views.retire(handle(1)).empty());               // the newer one overlapping it is alive
    CHECK(views.retire(handle(2)) == List{handle(2), handle(1)});  // newest first
    CHECK(views.takeAll().empty());
}

TEST_CASE("the newer of two overlapping views goes at once", "[views]") {
    hetero::BackendViews views;
    views.add(handle(1), 0, 100);
    views.add(handle(2), 50, 150);
    CHECK(views.retire(handle(2)) == List{handle(2)});
    CHECK(views.retire(handle(1)) == List{handle(1)});
}

TEST_CASE("views that do not overlap go in any order", "[views]") {
    hetero::BackendViews views;
    views.add(handle(1), 0, 100);
    views.add(handle(2), 100, 200);  // touching, not overlapping
    CHECK(views.retire(handle(1)) == List{handle(1)});
    CHECK(views.retire(handle(2)) == List{handle(2)});
}

TEST_CASE("a chain of overlaps goes when its newest view goes", "[views]") {
    hetero::BackendViews views;
    views.add(handle(1), 0, 100);
    views.add(handle(2), 80, 180);
    views.add(handle(3), 160, 260);
    views.add(handle(4), 1000, 1100);
    CHECK(views.retire(handle(1)).empty());
    CHECK(views.retire(handle(2)).empty());
    CHECK(views.retire(handle(3)) == List{handle(3), handle(2), handle(1)});
    CHECK(views.takeAll() == List{handle(4)});
}

TEST_CASE("what is left goes newest first with the storage", "[views]") {
    hetero::BackendViews views;
    views.add(handle(1), 0, 100);
    views.add(handle(2), 50, 150);
    views.add(handle(3), 60, 70);
    CHECK(views.retire(handle(1)).empty());
    CHECK(views.takeAll() == List{handle(3), handle(2), handle(1)});
}
