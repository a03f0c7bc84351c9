// Included inside a kernel's body by preprocessor_rules_test.cpp.
o[1] = 5;
