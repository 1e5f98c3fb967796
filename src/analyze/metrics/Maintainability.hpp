#pragma once
// The maintainability index as radon computes it (the SEI formula with a comment term, rescaled
// to 0–100).

namespace mcpkit::analyze {

/// `volume`: Halstead volume; `complexity`: total cyclomatic complexity; `lines`: logical lines
/// (radon uses lloc); `comment_percent`: comment lines per source line, in percent.
double maintainability_index(double volume, double complexity, double lines, double comment_percent);

}  // namespace mcpkit::analyze
