//===- yamlbench.cpp - call-heavy C++ workload on yaml-cpp ----------------===//
//
// Part of ActiveTime (bench/truth). Builds a YAML document of N records
// (nested maps and sequences) as a YAML::Node tree, emits it to a string
// with YAML::Emitter, loads the text back with YAML::Load, walks it summing
// what it finds, and repeats R times. yaml-cpp's scanner, parser, emitter
// and node memory are many small (member) functions: a call-heavy C++
// workload on third-party code. Prints a checksum so the instrumented builds
// can be checked against the plain one.
// Usage: yamlbench [records] [rounds]
//
//===----------------------------------------------------------------------===//

#include "yaml-cpp/yaml.h"

#include <cstdio>
#include <cstdlib>
#include <string>

static YAML::Node makeRecord(int I, unsigned &Seed) {
  Seed = Seed * 1103515245u + 12345u;
  YAML::Node R;
  R["id"] = I;
  R["name"] = "record-" + std::to_string(Seed % 100000);
  R["score"] = double(Seed % 10000) / 100.0;
  R["active"] = ((Seed >> 9) & 1) != 0;
  YAML::Node Pos;
  Pos["x"] = int(Seed % 640);
  Pos["y"] = int((Seed >> 4) % 480);
  Pos["z"] = -int((Seed >> 8) % 100);
  R["pos"] = Pos;
  YAML::Node Tags;
  for (unsigned T = 0; T < 1 + Seed % 4; ++T)
    Tags.push_back("tag" + std::to_string((Seed >> T) % 7));
  R["tags"] = Tags;
  YAML::Node Items;
  for (int J = 0; J < I % 5; ++J) {
    YAML::Node It;
    It["k"] = J;
    It["v"] = std::string(1 + (J * 3 + I) % 9, char('a' + J));
    Items.push_back(It);
  }
  R["items"] = Items;
  return R;
}

static unsigned long walk(const YAML::Node &Doc) {
  unsigned long Sum = 0;
  for (const YAML::Node &R : Doc) {
    Sum += R["id"].as<unsigned long>();
    Sum += R["name"].as<std::string>().size();
    Sum += (unsigned long)(R["score"].as<double>() * 100.0 + 0.5);
    Sum += R["active"].as<bool>() ? 1 : 0;
    const YAML::Node Pos = R["pos"];
    Sum += Pos["x"].as<int>() + Pos["y"].as<int>() * 3 - Pos["z"].as<int>();
    for (const YAML::Node &T : R["tags"])
      Sum += T.as<std::string>().back();
    for (const YAML::Node &It : R["items"])
      Sum += It["k"].as<int>() * 7 + It["v"].as<std::string>().size();
  }
  return Sum;
}

static unsigned long roundTrip(int Records, unsigned Seed) {
  YAML::Node Doc;
  for (int I = 0; I < Records; ++I)
    Doc.push_back(makeRecord(I, Seed));
  YAML::Emitter Out;
  Out << Doc;
  std::string Text = Out.c_str();
  YAML::Node Back = YAML::Load(Text);
  return walk(Back) * 31 + Text.size();
}

int main(int Argc, char **Argv) {
  int Records = Argc > 1 ? std::atoi(Argv[1]) : 2000;
  int Rounds = Argc > 2 ? std::atoi(Argv[2]) : 4;
  unsigned long Sum = 0;
  for (int R = 0; R < Rounds; ++R)
    Sum = Sum * 1000003ul + roundTrip(Records, 1234u + unsigned(R));
  std::printf("yamlbench %d records x %d rounds: checksum %lu\n", Records, Rounds, Sum);
  return 0;
}
