// The analysis tools: analyze-file, analyze-code, analyze-project, get-symbols, get-dependencies.

#include "analyze/server/AnalyzeServer.hpp"

#include "analyze/metrics/FileAnalyzer.hpp"
#include "analyze/project/ProjectAnalyzer.hpp"
#include "analyze/project/SourceFile.hpp"
#include "analyze/server/PathArguments.hpp"
#include "analyze/server/ToolCatalog.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace mcpkit::analyze {
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// The engine's messages, with the status they deserve.
[[noreturn]] void rethrow(const SourceFileError& error) {
    using Kind = SourceFileError::Kind;
    int code = error.kind == Kind::not_found   ? status_code::not_found
               : error.kind == Kind::too_large ? status_code::too_large
                                               : status_code::bad_request;
    throw ToolError(code, error.what());
}

std::string read_source(const std::string& path, std::string_view field, std::int64_t max_bytes) {
    try {
        return read_source_text(path, max_bytes, field);
    } catch (const SourceFileError& error) {
        rethrow(error);
    }
}

Language language_of(const std::string& path, const std::optional<std::string>& requested, std::string_view field) {
    try {
        return source_language(path, requested, field);
    } catch (const SourceFileError& error) {
        throw ToolError(status_code::bad_request, std::string(error.what()) + "; pass language");
    }
}

FindingThresholds thresholds_from(const json::object& arguments) {
    FindingThresholds thresholds;
    const json::value* options = arguments.if_contains("options");
    if (!options || !options->is_object()) return thresholds;
    const json::value* given = options->get_object().if_contains("thresholds");
    if (!given || !given->is_object()) return thresholds;
    auto read = [&](std::string_view key, int& target) {
        if (const json::value* value = given->get_object().if_contains(key); value && value->is_int64())
            target = static_cast<int>(value->get_int64());
    };
    read("cyclomatic", thresholds.cyclomatic_warning);
    read("cognitive", thresholds.cognitive_warning);
    read("functionLines", thresholds.function_lines_warning);
    read("nesting", thresholds.nesting_warning);
    return thresholds;
}

std::string file_text(const FileReport& report) {
    std::ostringstream text;
    text << report.path << " (" << name(report.language) << "): " << report.lines.total << " lines (" << report.lines.code
         << " code, " << report.lines.comment << " comment, " << report.lines.blank << " blank), "
         << report.functions.size() << " functions, " << report.types.size() << " types, " << report.imports.size()
         << " imports; maintainability index " << static_cast<int>(report.maintainability_index + 0.5) << "\n";
    std::vector<const FunctionMetrics*> worst;
    for (const FunctionMetrics& function : report.functions) worst.push_back(&function);
    std::sort(worst.begin(), worst.end(), [](auto* a, auto* b) { return a->cyclomatic > b->cyclomatic; });
    for (std::size_t i = 0; i < worst.size() && i < 5; ++i)
        text << "  " << report.path << ":" << worst[i]->start_line << " " << worst[i]->name << ": cyclomatic "
             << worst[i]->cyclomatic << ", cognitive " << worst[i]->cognitive << ", " << worst[i]->lines() << " lines\n";
    for (const Finding& finding : report.findings)
        if (finding.severity != "info")
            text << "  " << report.path << ":" << finding.line << " " << finding.rule << ": " << finding.message << "\n";
    return text.str();
}

ToolOutput file_output(const FileReport& report, std::string subject) {
    ToolOutput output;
    output.text = file_text(report);
    output.summary = report.path + ": " + std::to_string(report.lines.code) + " code lines, " +
                     std::to_string(report.functions.size()) + " functions, " + std::to_string(report.findings.size()) +
                     " findings";
    output.data = to_json(report);
    output.subject = std::move(subject);
    return output;
}

ProjectOptions project_options(const json::object& arguments, const AnalyzeServerOptions& server, CallControl& control) {
    ProjectOptions options;
    options.cache_path = server.cache_path;
    options.max_file_bytes = server.max_file_bytes;
    options.cancel = control.cancelled;
    options.keep_details = false;  // the answer carries per-file summaries and hotspots only
    const json::value* given = arguments.if_contains("options");
    if (given && !given->is_object()) throw ToolError(status_code::bad_request, "options must be an object");
    if (given) {
        const json::object& object = given->get_object();
        auto strings = [&](std::string_view key) {
            std::vector<std::string> values;
            if (const json::value* value = object.if_contains(key)) {
                if (!value->is_array()) throw ToolError(status_code::bad_request, "options." + std::string(key) + " must be an array of strings");
                for (const json::value& item : value->get_array()) {
                    if (!item.is_string()) throw ToolError(status_code::bad_request, "options." + std::string(key) + " must be an array of strings");
                    values.emplace_back(item.get_string());
                }
            }
            return values;
        };
        options.include = strings("include");
        options.exclude = strings("exclude");
        for (const std::string& text : strings("languages")) {
            auto language = parse_language(text);
            if (!language)
                throw ToolError(status_code::bad_request, "options.languages: \"" + text +
                                                              "\" is not supported: use c, cpp, python, javascript, "
                                                              "typescript, tsx, go, rust or java");
            options.languages.insert(*language);
        }
        if (const json::value* depth = object.if_contains("maxDepth")) {
            if (!depth->is_int64() || depth->get_int64() < 0)
                throw ToolError(status_code::bad_request, "options.maxDepth must be a whole number of directory levels, 0 or more");
            options.max_depth = static_cast<int>(depth->get_int64());
        }
        if (const json::value* dependencies = object.if_contains("includeDependencies"); dependencies && dependencies->is_bool())
            options.include_dependencies = dependencies->get_bool();
        if (const json::value* cache = object.if_contains("useCache"); cache && cache->is_bool() && !cache->get_bool())
            options.cache_path.clear();
    }
    options.file.thresholds = thresholds_from(arguments);
    options.progress = [&control](std::size_t done, std::size_t total) {
        control.progress(double(done), double(total), std::to_string(done) + " of " + std::to_string(total) + " files");
    };
    return options;
}

ProjectReport run_project(const std::string& root, const ProjectOptions& options) {
    try {
        return analyze_project(root, options);
    } catch (const std::invalid_argument& error) {
        throw ToolError(status_code::bad_request, error.what());
    }
}

}  // namespace

void add_analysis_tools(mcp::Server& server, CallRunner& runner, const AnalyzeServerOptions& options) {
    auto paths = std::make_shared<const PathArguments>(options.root, options.confine_to_root);
    auto add = [&](const char* tool_name, ToolBody body) {
        mcp::Tool tool = catalog_tool(tool_name);
        server.add_tool(
            std::move(tool),
            [&runner, name = std::string(tool_name), body = std::move(body)](mcp::ToolCall& call) {
                return runner.run(name, call, body);
            },
            runner.tool_options(tool_name, true, true));
    };

    add("analyze-file", [options, paths](const json::object& arguments, CallControl&) {
        std::string path = paths->resolve("path", required_string(arguments, "path", "the file to analyse, e.g. src/main.cpp"));
        FileAnalysisOptions file_options;
        file_options.thresholds = thresholds_from(arguments);
        std::optional<std::string> language = optional_string(arguments, "language");
        language_of(path, language, "language");  // its message, with the argument to pass
        try {
            return file_output(analyze_file(path, language, file_options, options.max_file_bytes), path);
        } catch (const SourceFileError& error) {
            rethrow(error);
        }
    });

    add("analyze-code", [options, paths](const json::object& arguments, CallControl&) {
        std::string code = required_string(arguments, "code", "the source text to analyse");
        if (static_cast<std::int64_t>(code.size()) > options.max_file_bytes)
            throw ToolError(status_code::too_large, "code is " + std::to_string(code.size()) + " bytes; the limit is " +
                                                        std::to_string(options.max_file_bytes) + " (the server's --max-file-bytes)");
        std::string file_path = optional_string(arguments, "filePath").value_or("<code>");
        refuse_nul("filePath", file_path);
        auto language_name = optional_string(arguments, "language");
        if (!language_name && !language_for_path(file_path))
            throw ToolError(status_code::bad_request,
                            "Missing required parameter: language (one of c, cpp, python, javascript, typescript, tsx, go, "
                            "rust, java), or a filePath whose extension tells it");
        FileAnalysisOptions file_options;
        file_options.thresholds = thresholds_from(arguments);
        FileReport report = analyze_source(file_path, code, language_of(file_path, language_name, "language"), file_options);
        return file_output(report, file_path == "<code>" ? std::string() : file_path);
    });

    add("analyze-project", [options, paths](const json::object& arguments, CallControl& control) {
        std::string root =
            paths->resolve("projectPath", required_string(arguments, "projectPath", "the directory to analyse, e.g. ."));
        ProjectOptions project = project_options(arguments, options, control);
        ProjectReport report = run_project(root, project);
        ToolOutput output;
        json::object data = to_json(report, 20, FileDetail::summary);
        std::ostringstream text;
        text << report.root << ": " << report.files.size() << " files, " << report.totals.lines.code << " code lines, "
             << report.totals.functions << " functions in " << report.seconds << " s";
        if (report.cache_hits) text << " (" << report.cache_hits << " from the cache)";
        text << "\n";
        for (const auto& [language, totals] : report.by_language)
            text << "  " << language << ": " << totals.files << " files, " << totals.lines.code << " code, "
                 << totals.lines.comment << " comment, " << totals.lines.blank << " blank\n";
        for (const json::value& hotspot : data["hotspots"].as_array()) {
            const json::object& entry = hotspot.as_object();
            text << "  hotspot " << entry.at("location").as_string().c_str() << " " << entry.at("function").as_string().c_str()
                 << ": cyclomatic " << entry.at("cyclomatic").as_int64() << "\n";
            if (&hotspot - data["hotspots"].as_array().data() >= 4) break;
        }
        for (const std::string& warning : report.warnings) text << "  warning: " << warning << "\n";
        if (report.dependencies)
            text << "  dependencies: " << report.dependencies->edges.size() << " internal edges, "
                 << report.dependencies->cycles.size() << " cycles\n";
        output.text = text.str();
        output.summary = report.root + ": " + std::to_string(report.files.size()) + " files, " +
                         std::to_string(report.totals.lines.code) + " code lines";
        output.subject = report.root;
        output.data = std::move(data);
        return output;
    });

    add("get-symbols", [options, paths](const json::object& arguments, CallControl&) {
        std::string path = paths->resolve("path", required_string(arguments, "path", "the file to outline"));
        std::string source = read_source(path, "path", options.max_file_bytes);
        FileReport report = analyze_source(path, source, language_of(path, optional_string(arguments, "language"), "language"));
        std::string query = optional_string(arguments, "query").value_or("");
        auto wanted = [&](const std::string& name) { return query.empty() || name.find(query) != std::string::npos; };
        json::array symbols;
        std::ostringstream text;
        for (const TypeSymbol& type : report.types)
            if (wanted(type.name)) {
                symbols.push_back(json::object{{"name", type.name}, {"kind", type.kind}, {"startLine", type.start_line},
                                               {"endLine", type.end_line}, {"location", path + ":" + std::to_string(type.start_line)}});
                text << path << ":" << type.start_line << " " << type.kind << " " << type.name << "\n";
            }
        for (const FunctionMetrics& function : report.functions)
            if (wanted(function.name)) {
                symbols.push_back(json::object{{"name", function.name}, {"kind", function.kind},
                                               {"startLine", function.start_line}, {"endLine", function.end_line},
                                               {"location", path + ":" + std::to_string(function.start_line)}});
                text << path << ":" << function.start_line << " " << function.kind << " " << function.name << "\n";
            }
        ToolOutput output;
        output.summary = path + ": " + std::to_string(symbols.size()) + " symbols";
        output.data = json::object{{"path", path}, {"symbols", std::move(symbols)}};
        output.text = text.str().empty() ? "No symbols" + (query.empty() ? std::string() : " matching " + query) : text.str();
        output.subject = path;
        return output;
    });

    add("get-dependencies", [options, paths](const json::object& arguments, CallControl& control) {
        std::string path = paths->resolve("path", required_string(arguments, "path", "the file whose dependencies to list"));
        read_source(path, "path", options.max_file_bytes);
        std::string root = paths->resolve("projectPath", optional_string(arguments, "projectPath").value_or(fs::path(path).parent_path().string()));
        ProjectOptions project;
        project.cache_path = options.cache_path;
        project.max_file_bytes = options.max_file_bytes;
        project.cancel = control.cancelled;
        project.keep_details = false;  // imports are all it needs
        ProjectReport report = run_project(root, project);
        if (report.cancelled) return ToolOutput{};  // the runner answers "cancelled"
        if (!report.dependencies) throw ToolError(status_code::internal_error, "the dependency graph was not built");
        std::string relative = fs::path(path).lexically_relative(root).generic_string();
        int self = -1;
        for (std::size_t i = 0; i < report.files.size(); ++i)
            if (report.files[i].path == relative) self = static_cast<int>(i);
        if (self < 0) throw ToolError(status_code::bad_request, "path " + path + " is not inside projectPath " + root);
        json::array imports, imported_by, resolved;
        for (const Import& import : report.files[static_cast<std::size_t>(self)].imports)
            imports.push_back(json::object{{"target", import.target}, {"kind", import.kind}, {"line", import.line}});
        for (const auto& [from, to] : report.dependencies->edges) {
            if (from == self) resolved.push_back(json::string(report.files[static_cast<std::size_t>(to)].path));
            if (to == self) imported_by.push_back(json::string(report.files[static_cast<std::size_t>(from)].path));
        }
        // Beyond the direct neighbours, up to maxDepth import steps each way.
        int max_steps = 1;
        if (const json::value* depth = arguments.if_contains("maxDepth"); depth && depth->is_number())
            max_steps = static_cast<int>(depth->to_number<double>());
        auto reached_json = [&](Direction direction) {
            json::array reached;
            for (const ReachedFile& file : reachable_within(*report.dependencies, report.files.size(), self, max_steps, direction))
                reached.push_back(json::object{{"path", report.files[static_cast<std::size_t>(file.file)].path}, {"steps", file.steps}});
            return reached;
        };
        json::object transitive{{"maxDepth", max_steps},
                                {"dependsOn", reached_json(Direction::imports)},
                                {"importedBy", reached_json(Direction::imported_by)}};
        json::array cycles;
        for (const auto& cycle : report.dependencies->cycles)
            if (std::find(cycle.begin(), cycle.end(), self) != cycle.end()) {
                json::array members;
                for (int index : cycle) members.push_back(json::string(report.files[static_cast<std::size_t>(index)].path));
                cycles.push_back(std::move(members));
            }
        auto files = [](std::size_t count) { return std::to_string(count) + (count == 1 ? " file" : " files"); };
        ToolOutput output;
        output.text = relative + ": " + std::to_string(imports.size()) + " imports (" + std::to_string(resolved.size()) +
                      " inside the project), imported by " + files(imported_by.size()) +
                      (cycles.empty() ? "" : ", in " + std::to_string(cycles.size()) + " import cycles");
        if (max_steps > 1)
            output.text += "; within " + std::to_string(max_steps) + " steps it reaches " +
                           files(transitive["dependsOn"].as_array().size()) + " and is reached from " +
                           files(transitive["importedBy"].as_array().size());
        output.summary = output.text;
        output.data = json::object{{"path", relative},       {"projectPath", root},       {"imports", std::move(imports)},
                                   {"dependsOn", std::move(resolved)}, {"importedBy", std::move(imported_by)},
                                   {"transitive", std::move(transitive)}, {"cycles", std::move(cycles)}};
        output.subject = path;
        return output;
    });
}

}  // namespace mcpkit::analyze
