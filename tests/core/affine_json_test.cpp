// core/ir/affine_json: the two JSON spellings of an affine expression (the request protocol's
// and the IR form's) come from one table of variable kinds and read back what they write.
#include <gtest/gtest.h>

#include "ir/affine_json.h"

using namespace nki;
using ir::AffineExpr;
using ir::ExprForm;
using ir::VarKind;

namespace {

AffineExpr every_kind() {
  return AffineExpr(7) + AffineExpr::var({VarKind::LoopIv, 0}, 128) +
         AffineExpr::var({VarKind::LoopIvMod, 1, 4, 2}, 3) +
         AffineExpr::var({VarKind::LoopIvDiv, 2, 8, 0}, -2) +
         AffineExpr::var({VarKind::ProgramId, 0}, 512) + AffineExpr::var({VarKind::TileAxis, 1}) +
         AffineExpr::var({VarKind::Register, 3}, 4);
}

std::string write(const AffineExpr& e, ExprForm form) {
  util::JsonWriter w;
  ir::write_affine(w, e, form);
  return w.take();
}

} // namespace

TEST(AffineJson, both_forms_read_back_what_they_write) {
  for (ExprForm form : {ExprForm::Wire, ExprForm::Exchange}) {
    std::string text = write(every_kind(), form);
    AffineExpr back = ir::read_affine(util::Json::parse(text), form);
    EXPECT_EQ(write(back, form), text);
    EXPECT_EQ(write(back, ExprForm::Wire), write(every_kind(), ExprForm::Wire));
  }
}

TEST(AffineJson, forms_spell_kinds_their_own_way) {
  EXPECT_EQ(write(AffineExpr::var({VarKind::ProgramId, 1}, 2), ExprForm::Wire),
            R"({"c":0,"t":[["P",1,2]]})");
  EXPECT_EQ(write(AffineExpr::var({VarKind::ProgramId, 1}, 2), ExprForm::Exchange),
            R"({"const":0,"terms":[{"var":"program_id","id":1,"coeff":2}]})");
  EXPECT_EQ(write(AffineExpr::var({VarKind::Register, 2}), ExprForm::Wire),
            R"({"c":0,"t":[["R",2,1]]})");
  EXPECT_EQ(write(AffineExpr::var({VarKind::Register, 2}), ExprForm::Exchange),
            R"({"const":0,"terms":[{"var":"register","id":2,"coeff":1}]})");
  EXPECT_THROW(ir::read_affine(util::Json::parse(R"({"c":0,"t":[["Q",0,1]]})"), ExprForm::Wire),
               std::invalid_argument);
}
