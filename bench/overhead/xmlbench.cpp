//===- xmlbench.cpp - call-heavy C++ workload on tinyxml2 -----------------===//
//
// Part of ActiveTime (bench/overhead). Builds an XML document of N records
// with tinyxml2's DOM API, prints it, parses the text back, walks it summing
// attributes, and repeats R times. Many small member functions per element:
// a call-heavy C++ workload on third-party code. Prints a checksum so the
// instrumented builds can be checked against the plain one.
// Usage: xmlbench [records] [rounds]
//
//===----------------------------------------------------------------------===//

#include "tinyxml2.h"

#include <cstdio>
#include <cstdlib>

using namespace tinyxml2;

static unsigned long roundTrip(int Records, unsigned Seed) {
  XMLDocument Doc;
  XMLElement *Root = Doc.NewElement("catalog");
  Doc.InsertEndChild(Root);
  for (int I = 0; I < Records; ++I) {
    Seed = Seed * 1103515245u + 12345u;
    XMLElement *E = Doc.NewElement("item");
    E->SetAttribute("id", I);
    E->SetAttribute("price", double(Seed % 10000) / 100.0);
    E->SetAttribute("flag", (Seed >> 7) & 1 ? true : false);
    XMLElement *Name = Doc.NewElement("name");
    char Buf[32];
    snprintf(Buf, sizeof Buf, "item-%u & <%d>", Seed % 997, I);
    Name->SetText(Buf);
    E->InsertEndChild(Name);
    Root->InsertEndChild(E);
  }
  XMLPrinter Printer;
  Doc.Print(&Printer);

  XMLDocument Parsed;
  if (Parsed.Parse(Printer.CStr(), Printer.CStrSize() - 1) != XML_SUCCESS)
    return 0;
  unsigned long Sum = 0;
  for (const XMLElement *E = Parsed.RootElement()->FirstChildElement("item"); E;
       E = E->NextSiblingElement("item")) {
    Sum += unsigned(E->IntAttribute("id")) * 3u;
    Sum += unsigned(E->DoubleAttribute("price") * 100.0 + 0.5);
    Sum += E->BoolAttribute("flag") ? 7 : 0;
    if (const XMLElement *N = E->FirstChildElement("name"))
      for (const char *C = N->GetText(); C && *C; ++C)
        Sum += unsigned(*C);
  }
  return Sum + Printer.CStrSize();
}

int main(int argc, char **argv) {
  int Records = argc > 1 ? atoi(argv[1]) : 20000;
  int Rounds = argc > 2 ? atoi(argv[2]) : 10;
  unsigned long Total = 0;
  for (int R = 0; R < Rounds; ++R)
    Total += roundTrip(Records, unsigned(R));
  printf("xmlbench %d records x %d rounds: checksum %lu\n", Records, Rounds, Total);
  return 0;
}
