//===- ShortNamesTest.cpp - Readable C++ names -------------------------------===//
//
// Part of ActiveTime. The names are real: the linkage names of a small
// program using std::map<std::string, std::vector<std::string>>, std::sort,
// a lambda and a few operators, compiled by clang 19 against libstdc++ 12.
//
//===----------------------------------------------------------------------===//

#include "activetime/Report/ShortNames.h"

#include "gtest/gtest.h"

using namespace activetime::report;

namespace {

std::string shortOf(const char *Linkage) { return shortName(Linkage).Short; }

TEST(ShortNames, LibstdcxxMembersLoseTheirTemplateArguments) {
  EXPECT_EQ(shortOf("_ZNSt6vectorINSt7__cxx1112basic_stringIcSt11char_"
                    "traitsIcESaIcEEESaIS5_EE17_M_realloc_insertIJS5_EEEvN9__"
                    "gnu_cxx17__normal_iteratorIPS5_S7_EEDpOT_"),
            "std::vector<...>::_M_realloc_insert<...>(...)");
  EXPECT_EQ(shortOf("_ZNSt6vectorINSt7__cxx1112basic_stringIcSt11char_"
                    "traitsIcESaIcEEESaIS5_EE9push_backEOS5_"),
            "std::vector<...>::push_back(...)");
  EXPECT_EQ(shortOf("_ZNSt3mapINSt7__cxx1112basic_stringIcSt11char_traitsIcE"
                    "SaIcEEESt6vectorIS5_SaIS5_EESt4lessIS5_ESaISt4pairIKS5_"
                    "S8_EEEixEOS5_"),
            "std::map<...>::operator[](...)");
  EXPECT_EQ(shortOf("_ZNSt8_Rb_treeINSt7__cxx1112basic_stringIcSt11char_"
                    "traitsIcESaIcEEESt4pairIKS5_St6vectorIS5_SaIS5_EEESt10_"
                    "Select1stISB_ESt4lessIS5_ESaISB_EE24_M_get_insert_"
                    "unique_posERS7_"),
            "std::_Rb_tree<...>::_M_get_insert_unique_pos(...)");
  // A constructor template of std::string (the Ss substitution expanded).
  EXPECT_EQ(shortOf("_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEC2"
                    "IS3_EEmcRKS3_"),
            "std::__cxx11::basic_string<...>::basic_string<...>(...)");
  EXPECT_EQ(shortOf("_ZNKSt3mapINSt7__cxx1112basic_stringIcSt11char_traitsIcE"
                    "SaIcEEESt6vectorIS5_SaIS5_EESt4lessIS5_ESaISt4pairIKS5_"
                    "S8_EEE4sizeEv"),
            "std::map<...>::size()");
}

TEST(ShortNames, Operators) {
  EXPECT_EQ(shortOf("_ZNK1PltERKS_"), "P::operator<(...)");
  EXPECT_EQ(shortOf("_ZN1PptEv"), "P::operator->()");
  EXPECT_EQ(shortOf("_ZlsRSoRK1P"), "operator<<(...)");
  // operator< of a template: a space keeps it apart from operator<<.
  EXPECT_EQ(shortOf("_ZN9__gnu_cxxltIP1PSt6vectorIS1_SaIS1_EEEEbRKNS_17__"
                    "normal_iteratorIT_T0_EESB_"),
            "__gnu_cxx::operator< <...>(...)");
  EXPECT_EQ(shortOf("_ZNKSt17_Rb_tree_iteratorISt4pairIKNSt7__cxx1112basic_"
                    "stringIcSt11char_traitsIcESaIcEEESt6vectorIS6_SaIS6_EEEE"
                    "ptEv"),
            "std::_Rb_tree_iterator<...>::operator->()");
}

TEST(ShortNames, LambdasLocalAndAnonymousNames) {
  EXPECT_EQ(shortOf("_ZZ4mainENKUliE_clEi"),
            "main::'lambda'(int)::operator()(...)");
  EXPECT_EQ(shortOf("_ZZ4mainENKUliE0_clEi"),
            "main::'lambda0'(int)::operator()(...)");
  EXPECT_EQ(shortOf("_ZZ4mainENK3$_0clEi"), "main::$_0::operator()(...)");
  EXPECT_EQ(shortOf("_ZN12_GLOBAL__N_16helperEi"),
            "(anonymous namespace)::helper(...)");
}

TEST(ShortNames, CFunctionsClonesThunksAndFailures) {
  EXPECT_EQ(shortOf("main"), "main");
  EXPECT_EQ(shortOf("memcpy_loop"), "memcpy_loop");
  EXPECT_EQ(shortOf("_Z3fooILi3EEvv.cold"), "foo<...>() (.cold)");
  EXPECT_EQ(shortOf("_ZThn8_N1B1fEv"), "non-virtual thunk to B::f()");
  // Not a valid mangling: kept as it is.
  EXPECT_EQ(shortOf("_Zbroken"), "_Zbroken");
  EXPECT_EQ(shortOf(""), "");
}

TEST(ShortNames, WithParamsShowsTypesAndQualifiers) {
  ShortName N = shortName("_ZNK9__gnu_cxx17__normal_iteratorIP1PSt6vectorIS1_"
                          "SaIS1_EEEmiEl");
  EXPECT_EQ(N.Short, "__gnu_cxx::__normal_iterator<...>::operator-(...)");
  EXPECT_EQ(N.WithParams,
            "__gnu_cxx::__normal_iterator<...>::operator-(long) const");
  EXPECT_EQ(shortName("_ZNSt4pairIPSt18_Rb_tree_node_baseS1_EC2IS1_S1_TnNSt9"
                      "enable_ifIXaaclsr5_PCCPE18_ConstructiblePairIT_T0_EEcl"
                      "sr5_PCCPE26_ImplicitlyConvertiblePairIS5_S6_EEEbE4type"
                      "ELb1EEERKS1_SA_")
                .WithParams,
            "std::pair<...>::pair<...>(std::_Rb_tree_node_base* const&, "
            "std::_Rb_tree_node_base* const&)");
}

TEST(ShortNames, ElideTemplateArgs) {
  EXPECT_EQ(elideTemplateArgs("std::vector<std::pair<int, long>, A<B>>&"),
            "std::vector<...>&");
  EXPECT_EQ(elideTemplateArgs("int"), "int");
}

TEST(ShortNames, DistinctOverloadsAndInstances) {
  std::vector<std::string> Names = {
      // twice<double>(double) and twice<int>(int): parameters tell apart.
      "_Z5twiceIdET_S0_",
      "_Z5twiceIiET_S0_",
      // Two instances whose parameters print the same: numbered in the
      // order of their full names.
      "_ZNK9__gnu_cxx17__normal_iteratorIP1PSt6vectorIS1_SaIS1_EEE4baseEv",
      "_ZNK9__gnu_cxx17__normal_iteratorIPNSt7__cxx1112basic_stringIcSt11"
      "char_traitsIcESaIcEEESt6vectorIS6_SaIS6_EEE4baseEv",
      // Alone under its short name: stays short.
      "_ZNSt6vectorINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESaI"
      "S5_EE9push_backEOS5_",
      // The same function twice (a local function of two modules): one name.
      "_ZN12_GLOBAL__N_16helperEi",
      "_ZN12_GLOBAL__N_16helperEi",
      "main",
  };
  std::vector<std::string> D = distinctShortNames(Names);
  ASSERT_EQ(D.size(), Names.size());
  EXPECT_EQ(D[0], "twice<...>(double)");
  EXPECT_EQ(D[1], "twice<...>(int)");
  // "P*" sorts before "std::..." in the full names.
  EXPECT_EQ(D[2], "__gnu_cxx::__normal_iterator<...>::base() const #1");
  EXPECT_EQ(D[3], "__gnu_cxx::__normal_iterator<...>::base() const #2");
  EXPECT_EQ(D[4], "std::vector<...>::push_back(...)");
  EXPECT_EQ(D[5], "(anonymous namespace)::helper(...)");
  EXPECT_EQ(D[6], D[5]);
  EXPECT_EQ(D[7], "main");
}

} // namespace
