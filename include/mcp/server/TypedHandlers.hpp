#pragma once
// Typed tools and prompts: a handler takes a struct described with Boost.Describe (and optionally
// the call's context) and returns a struct, text or a full result. Server::add_tool and
// Server::add_prompt use these adapters when the handler does not take the untyped context:
//
//   struct WeatherArgs { std::string city; };            BOOST_DESCRIBE_STRUCT(WeatherArgs, (), (city))
//   struct WeatherReport { double celsius; };            BOOST_DESCRIBE_STRUCT(WeatherReport, (), (celsius))
//   server.add_tool("get_weather", "Current weather of a city",
//                   [](const WeatherArgs& args) { return WeatherReport{21.5}; });
//
// The input schema is generated from the argument struct (strict: unknown arguments are refused);
// a struct result becomes structuredContent, its schema the outputSchema, and its JSON text the
// content for clients that read text. Handlers may be coroutines (return an awaitable), take
// `ToolCall&` / `PromptGet&` as a second parameter for progress, cancellation and logging, and
// return Outcome<…> to ask the client for input.

#include "mcp/Export.hpp"
#include "mcp/Error.hpp"
#include "mcp/protocol/Prompt.hpp"
#include "mcp/protocol/Tool.hpp"
#include "mcp/server/InputRequired.hpp"
#include "mcp/server/RequestContext.hpp"
#include "mcp/typed/TypedJson.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/parse.hpp>

#include <memory>
#include <stdexcept>
#include <tuple>
#include <type_traits>

namespace mcp {

/// Arguments that do not fit a typed tool's argument struct. The server answers them as it
/// answers arguments that break the inputSchema (an isError result naming the field).
class MCP_API InvalidArguments : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// \cond INTERNAL
namespace detail {

template <class F>
struct callable_traits : callable_traits<decltype(&F::operator())> {};
template <class R, class... A>
struct callable_traits<R (*)(A...)> {
    using result = R;
    using parameters = std::tuple<A...>;
};
template <class R, class... A>
struct callable_traits<R (*)(A...) noexcept> : callable_traits<R (*)(A...)> {};
template <class C, class R, class... A>
struct callable_traits<R (C::*)(A...) const> : callable_traits<R (*)(A...)> {};
template <class C, class R, class... A>
struct callable_traits<R (C::*)(A...) const noexcept> : callable_traits<R (*)(A...)> {};
template <class C, class R, class... A>
struct callable_traits<R (C::*)(A...)> : callable_traits<R (*)(A...)> {};
template <class C, class R, class... A>
struct callable_traits<R (C::*)(A...) noexcept> : callable_traits<R (*)(A...)> {};

template <class T>
struct awaited {
    using type = T;
    static constexpr bool coroutine = false;
};
template <class T, class E>
struct awaited<boost::asio::awaitable<T, E>> {
    using type = T;
    static constexpr bool coroutine = true;
};

template <class T>
struct outcome_of {
    using type = T;
    static constexpr bool is_outcome = false;
};
template <class T>
struct outcome_of<std::variant<T, InputRequired>> {
    using type = T;
    static constexpr bool is_outcome = true;
};

/// What a typed handler looks like: its argument struct, whether it wants the context, what it returns.
template <class F, class Context>
struct TypedSignature {
    using Parameters = typename callable_traits<std::remove_cvref_t<F>>::parameters;
    static constexpr std::size_t arity = std::tuple_size_v<Parameters>;
    static_assert(arity == 1 || arity == 2,
                  "a typed handler takes (const Args&) or (const Args&, Context&), Args being a described struct");
    using Args = std::remove_cvref_t<std::tuple_element_t<0, Parameters>>;
    static_assert(described_struct<Args>, "a typed handler's first parameter must be a struct described with BOOST_DESCRIBE_STRUCT");
    static constexpr bool wants_context = arity == 2;
    using Returned = typename callable_traits<std::remove_cvref_t<F>>::result;
    static constexpr bool coroutine = awaited<Returned>::coroutine;
    using Out = typename outcome_of<typename awaited<Returned>::type>::type;
    static constexpr bool may_ask_input = outcome_of<typename awaited<Returned>::type>::is_outcome;
};

template <class Args, class F, class Context>
decltype(auto) invoke_typed(F& function, const Args& args, Context& context) {
    if constexpr (std::is_invocable_v<F&, const Args&, Context&>) return function(args, context);
    else return function(args);
}

// ---- tools ----

template <class Out>
CallToolResult tool_result_from(Out&& out) {
    using O = std::remove_cvref_t<Out>;
    if constexpr (std::is_same_v<O, CallToolResult>) {
        return std::forward<Out>(out);
    } else if constexpr (std::is_convertible_v<const O&, std::string_view>) {
        return CallToolResult::text(std::string_view(out));
    } else {
        static_assert(described_struct<O> || is_string_map<O>::value,
                      "a typed tool returns a described struct, a string, or a CallToolResult");
        return CallToolResult::structured(to_json_value(out));
    }
}

/// What a typed handler returned, as the outcome the server runs with: an input request as it is,
/// anything else through `convert`.
template <class Result, class Returned, class Convert>
Outcome<Result> outcome_from(Returned&& returned, Convert convert) {
    using R = std::remove_cvref_t<Returned>;
    if constexpr (outcome_of<R>::is_outcome) {
        if (auto* input = std::get_if<InputRequired>(&returned)) return std::move(*input);
        return convert(std::move(std::get<0>(returned)));
    } else {
        return convert(std::forward<Returned>(returned));
    }
}

template <class Returned>
Outcome<CallToolResult> tool_outcome_from(Returned&& returned) {
    return outcome_from<CallToolResult>(std::forward<Returned>(returned),
                                        [](auto&& out) { return tool_result_from(std::forward<decltype(out)>(out)); });
}

template <class Args>
Args tool_arguments(const boost::json::object& arguments) {
    try {
        return from_json_object<Args>(arguments);
    } catch (const JsonConversionError& e) {
        throw InvalidArguments(e.what());
    }
}

template <class F>
boost::asio::awaitable<Outcome<CallToolResult>> run_typed_tool(std::shared_ptr<F> function, ToolCall& call) {
    using Signature = TypedSignature<F, ToolCall>;
    auto args = tool_arguments<typename Signature::Args>(call.arguments);
    co_return tool_outcome_from(co_await invoke_typed(*function, args, call));
}

/// The tool with its generated schemas, and the untyped handler that parses and converts.
template <class F>
auto typed_tool(Tool& tool, F function) {
    using Signature = TypedSignature<F, ToolCall>;
    tool.input_schema = json_schema_of<typename Signature::Args>(true);
    if constexpr (described_struct<typename Signature::Out>) {
        if (!tool.output_schema) tool.output_schema = json_schema_of<typename Signature::Out>(false);
    }
    if constexpr (Signature::coroutine) {
        return [function = std::make_shared<F>(std::move(function))](ToolCall& call) {
            return run_typed_tool(function, call);
        };
    } else {
        return [function = std::move(function)](ToolCall& call) -> Outcome<CallToolResult> {
            auto args = tool_arguments<typename Signature::Args>(call.arguments);
            return tool_outcome_from(invoke_typed(function, args, call));
        };
    }
}

// ---- prompts ----

/// Prompt arguments arrive as strings; a field of another type is read as the JSON it spells
/// ("3", "true"), an enum by its name.
template <class Args>
Args prompt_arguments(const std::string& prompt, const std::unordered_map<std::string, std::string>& given) {
    boost::json::object object;
    boost::mp11::mp_for_each<boost::describe::describe_members<Args, boost::describe::mod_public>>([&](auto member) {
        auto it = given.find(member.name);
        if (it == given.end()) return;
        using Field = std::remove_cvref_t<decltype(std::declval<Args&>().*member.pointer)>;
        using Value = typename std::conditional_t<is_std_optional<Field>::value, Field, std::optional<Field>>::value_type;
        if constexpr (std::is_same_v<Value, std::string> || described_enum<Value>) {
            object[member.name] = it->second;
        } else {
            boost::system::error_code ec;
            boost::json::value parsed = boost::json::parse(it->second, ec);
            object[member.name] = ec ? boost::json::value(it->second) : std::move(parsed);
        }
    });
    try {
        return from_json_object<Args>(object);
    } catch (const JsonConversionError& e) {
        throw Error::invalid_params("Invalid arguments for prompt " + prompt + ": " + e.what());
    }
}

template <class Args>
std::vector<PromptArgument> prompt_argument_list() {
    static_assert(described_struct<Args>, "a typed prompt's first parameter must be a described struct");
    const FieldDescriptions<Args> fields = field_descriptions_of<Args>();
    std::vector<PromptArgument> list;
    boost::mp11::mp_for_each<boost::describe::describe_members<Args, boost::describe::mod_public>>([&](auto member) {
        using Field = std::remove_cvref_t<decltype(std::declval<Args&>().*member.pointer)>;
        PromptArgument argument;
        argument.name = member.name;
        if (const auto* keywords = fields.keywords(member.name)) {
            if (auto* d = keywords->if_contains("description"); d && d->is_string()) argument.description = std::string(d->get_string());
            if (auto* t = keywords->if_contains("title"); t && t->is_string()) argument.title = std::string(t->get_string());
        }
        argument.required = !is_std_optional<Field>::value && !fields.optional(member.name);
        list.push_back(std::move(argument));
    });
    return list;
}

template <class Out>
GetPromptResult prompt_result_from(Out&& out) {
    using O = std::remove_cvref_t<Out>;
    if constexpr (std::is_same_v<O, GetPromptResult>) {
        return std::forward<Out>(out);
    } else if constexpr (std::is_same_v<O, std::vector<PromptMessage>>) {
        return GetPromptResult{std::nullopt, std::forward<Out>(out)};
    } else {
        static_assert(std::is_convertible_v<const O&, std::string_view>,
                      "a typed prompt returns GetPromptResult, std::vector<PromptMessage> or text (one user message)");
        return GetPromptResult{std::nullopt, {PromptMessage{"user", Content::text(std::string_view(out))}}};
    }
}

template <class Returned>
Outcome<GetPromptResult> prompt_outcome_from(Returned&& returned) {
    return outcome_from<GetPromptResult>(std::forward<Returned>(returned),
                                         [](auto&& out) { return prompt_result_from(std::forward<decltype(out)>(out)); });
}

template <class F>
boost::asio::awaitable<Outcome<GetPromptResult>> run_typed_prompt(std::shared_ptr<F> function, PromptGet& get) {
    using Signature = TypedSignature<F, PromptGet>;
    auto args = prompt_arguments<typename Signature::Args>(get.name, get.arguments);
    co_return prompt_outcome_from(co_await invoke_typed(*function, args, get));
}

template <class F>
auto typed_prompt(Prompt& prompt, F function) {
    using Signature = TypedSignature<F, PromptGet>;
    prompt.arguments = prompt_argument_list<typename Signature::Args>();
    if constexpr (Signature::coroutine) {
        return [function = std::make_shared<F>(std::move(function))](PromptGet& get) {
            return run_typed_prompt(function, get);
        };
    } else {
        return [function = std::move(function)](PromptGet& get) -> Outcome<GetPromptResult> {
            auto args = prompt_arguments<typename Signature::Args>(get.name, get.arguments);
            return prompt_outcome_from(invoke_typed(function, args, get));
        };
    }
}

}  // namespace detail
/// \endcond
}  // namespace mcp
