#pragma once
/// The one IR printer. It walks a Kernel and emits lines into a sink; the text sink and the
/// record sink receive the same lines, so joining the records' text gives the text exactly.
#include <string>
#include <vector>

#include "ir/ir.h"

namespace nki::printer {

/// One printed line with what it belongs to (for linking source ↔ IR ↔ regions).
struct LineRecord {
  std::string text;   ///< the line, indentation included, no newline
  int depth = 0;      ///< nesting depth (indentation level)
  int op_id = -1;     ///< instruction printed on this line, or -1
  int region_id = -1; ///< region this line opens/closes, or the region an instruction is in
  ir::SourceLoc loc;  ///< source location of the instruction or region, if known
};

/// One region's summary, as every view shows it (the region tree, the pre-rendered outline, the
/// breadcrumb, the link index): the views decorate these, they neither parse the printed text
/// nor word a region again.
struct RegionRecord {
  int region = -1;   ///< region id (as in the JSON form)
  int parent = -1;   ///< enclosing region, -1 for the kernel's
  int depth = 0;     ///< 0 for the kernel's region
  std::string kind;  ///< "LoopScope", ...
  std::string label; ///< its opening line without `{` and location ("kernel @name" for the kernel)
  /// What it was opened with: the label after the kind ("@name" for the kernel).
  std::string detail;
  /// The kernel's only: its argument types and grid, "(f32[128,64]) grid [2]".
  std::string signature;
  int axis = -1;        ///< a LoopScope's loop axis (index into the JSON form's loop_axes)
  int line = -1;        ///< index of its opening line record
  int instructions = 0; ///< instructions in it and in every region inside it
  std::vector<std::string> engines; ///< engines of those instructions, sorted, "none" left out
  ir::SourceLoc loc;                ///< where it was opened
  /// Source span: its own line through the last line inside it in the same file (none when its
  /// location has no file).
  bool has_span = false;
  int span_start = 0, span_end = 0;
};

class Sink {
public:
  virtual ~Sink() = default;
  virtual void line(LineRecord rec) = 0;
  /// Each region's summary, parents before children, after the last line.
  virtual void region(RegionRecord) {}
};

/// Collects "line\n" for every line.
class TextSink : public Sink {
public:
  void line(LineRecord rec) override;
  const std::string& text() const { return text_; }

private:
  std::string text_;
};

class RecordSink : public Sink {
public:
  void line(LineRecord rec) override { records_.push_back(std::move(rec)); }
  void region(RegionRecord rec) override { regions_.push_back(std::move(rec)); }
  const std::vector<LineRecord>& records() const { return records_; }
  const std::vector<RegionRecord>& regions() const { return regions_; }

private:
  std::vector<LineRecord> records_;
  std::vector<RegionRecord> regions_;
};

/// Prints `k` into `sink`.
void print_kernel(const ir::Kernel& k, Sink& sink);
/// Convenience: the plain text form.
std::string to_text(const ir::Kernel& k);
/// The text form of printed records: each record's text and a newline (what TextSink holds).
std::string records_to_text(const std::vector<LineRecord>& records);
/// The records as a JSON array of {text, depth, op_id, region_id, loc}.
std::string records_to_json(const std::vector<LineRecord>& records);
/// The region records as a JSON array of {region, parent, depth, kind, label, detail, axis?,
/// line, instructions, engines, loc, span: {file, start_line, end_line} | null} (the kernel's
/// region first, with its signature; docs/ir-format.md).
std::string regions_to_json(const std::vector<RegionRecord>& regions);
/// The versioned JSON exchange form of the whole kernel (docs/ir-format.md).
std::string to_json(const ir::Kernel& k);

/// Printing helpers shared with diagnostics.
std::string format_expr(const ir::Kernel& k, const ir::AffineExpr& e, size_t tile_rank);
std::string format_access(const ir::Kernel& k, const ir::AccessPattern& ap);
std::string format_type(const ir::Tensor& t);
std::string format_predicate(const ir::Kernel& k, const ir::Predicate& p, size_t tile_rank);

constexpr int kIrJsonVersion = 1;

} // namespace nki::printer
