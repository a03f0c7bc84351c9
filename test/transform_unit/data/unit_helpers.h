// Included by analysis_facts_test.cpp through -I: macros from a header must be seen by the analysis.
#define UNIT_SCALE 1.5f
