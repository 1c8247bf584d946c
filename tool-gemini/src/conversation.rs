//! Gemini's side of the agent loop: the `generateContent` request JSON,
//! the conversation resent with every request (`contents`), and how each
//! `finishReason` ends a turn. The loop itself is tool-runtime's `Agent`;
//! `agent::GeminiAgent` names it for this API.
//!
//! The API keeps no conversation: every request carries all of it. After
//! each user turn comes the model's `content` exactly as the candidate gave
//! it (text, thoughts with their signatures, `functionCall` parts, part
//! kinds this loop does not know, all unchanged), then one user turn whose
//! parts hold a `functionResponse` for every `functionCall`, in their
//! order, before any text.

use serde_json::{Map, Value, json};
use tool_core::provider::{Conversation, Reading, Round, TurnEnd};
use tool_core::{Narrowing, ResponseError, ToolContract, ToolOutput};

use crate::calls::GeminiCalls;
use crate::compile::Dialect;
use crate::round::GenerateContent;
use crate::wire::{FunctionCalling, ToolSetError, tools_for_gemini};

/// The base URL of the Gemini API.
pub const API_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";

/// The request keys [`AgentSettings::extra`] may not set: those the loop
/// writes itself.
const LOOP_KEYS: &[&str] = &["contents", "tools", "toolConfig", "systemInstruction"];

/// The finish reasons with which the model declined (its content was
/// blocked): the turn ends [`TurnEnd::Refused`].
const REFUSALS: [&str; 6] = [
    "SAFETY",
    "RECITATION",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "IMAGE_SAFETY",
];

/// The endpoint of a `generateContent` request for `model`, relative to
/// the base URL ([`API_BASE_URL`]): `models/{model}:generateContent`.
///
/// ```
/// assert_eq!(
///     tool_contract::gemini::agent::generate_content_path("gemini-2.5-flash"),
///     "models/gemini-2.5-flash:generateContent"
/// );
/// ```
pub fn generate_content_path(model: &str) -> String {
    format!("models/{model}:generateContent")
}

/// What the loop writes into every request besides the conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSettings {
    /// The model, e.g. `gemini-2.5-flash`; it names the endpoint
    /// ([`generate_content_path`]).
    pub model: String,
    /// The system instruction (`systemInstruction`), if any.
    pub system_instruction: Option<String>,
    /// Whether and which functions the model may call (`toolConfig`);
    /// `None` leaves the key out (the API's default, `AUTO`).
    pub function_calling: Option<FunctionCalling>,
    /// The schema dialect of the declarations.
    pub dialect: Dialect,
    /// The most requests one user turn (or one `resume`) may make; when
    /// the model still calls functions after that many, the turn ends with
    /// `TurnEnd::RequestLimit`. 0 counts as 1.
    pub max_requests: usize,
    /// Further request keys written as given, e.g. `"generationConfig":
    /// {"temperature": 0}`, `"safetySettings": [...]`. The keys the loop
    /// writes itself (`contents`, `tools`, `toolConfig`,
    /// `systemInstruction`) are refused.
    pub extra: Map<String, Value>,
}

impl AgentSettings {
    /// `model`, `parametersJsonSchema` declarations, at most 8 requests a
    /// turn, no system instruction, no `toolConfig`, nothing extra.
    pub fn new(model: impl Into<String>) -> Self {
        AgentSettings {
            model: model.into(),
            system_instruction: None,
            function_calling: None,
            dialect: Dialect::ParametersJsonSchema,
            max_requests: 8,
            extra: Map::new(),
        }
    }
}

/// Gemini's conversation as the agent loop carries it.
#[derive(Debug)]
pub struct Contents {
    settings: AgentSettings,
    tools: Vec<Value>,
    /// The turns the API has answered: user and model, in order.
    history: Vec<Value>,
    /// The `functionResponse` parts the next user turn starts with.
    responses: Vec<Value>,
    /// The user's texts the next user turn holds, after the responses.
    texts: Vec<String>,
}

impl Contents {
    /// The turns the API has answered so far, as the next request resends
    /// them.
    pub fn contents(&self) -> &[Value] {
        &self.history
    }

    /// The user turn the next request adds: the waiting `functionResponse`
    /// parts first, then the user's texts.
    fn user_content(&self) -> Option<Value> {
        if self.responses.is_empty() && self.texts.is_empty() {
            return None;
        }
        let mut parts = self.responses.clone();
        parts.extend(self.texts.iter().map(|text| json!({"text": text})));
        Some(json!({"role": "user", "parts": parts}))
    }
}

impl Conversation for Contents {
    type Provider = GenerateContent;
    type Settings = AgentSettings;
    type ToolSetError = ToolSetError;

    const LOOP_KEYS: &'static [&'static str] = LOOP_KEYS;
    const WRITES: &'static str = "contents, tools, toolConfig and systemInstruction";

    fn extra(settings: &AgentSettings) -> &Map<String, Value> {
        &settings.extra
    }

    fn start(
        settings: AgentSettings,
        contracts: &[&'static ToolContract],
    ) -> Result<Self, ToolSetError> {
        let tools = match tools_for_gemini(contracts, settings.dialect)? {
            Value::Array(tools) => tools,
            other => vec![other],
        };
        Ok(Contents {
            settings,
            tools,
            history: Vec::new(),
            responses: Vec::new(),
            texts: Vec::new(),
        })
    }

    fn provider(&self) -> &GenerateContent {
        &GenerateContent
    }

    fn tools(&self) -> &[Value] {
        &self.tools
    }

    fn max_requests(&self) -> usize {
        self.settings.max_requests
    }

    fn path(&self) -> String {
        generate_content_path(&self.settings.model)
    }

    fn push_user(&mut self, text: &str) {
        self.texts.push(text.to_owned());
    }

    fn has_pending(&self) -> bool {
        !(self.responses.is_empty() && self.texts.is_empty())
    }

    fn request(&self) -> Value {
        let mut request = Map::new();
        let mut contents = self.history.clone();
        contents.extend(self.user_content());
        request.insert("contents".to_owned(), Value::Array(contents));
        request.insert("tools".to_owned(), Value::Array(self.tools.clone()));
        if let Some(calling) = &self.settings.function_calling {
            request.insert("toolConfig".to_owned(), calling.tool_config());
        }
        if let Some(instruction) = &self.settings.system_instruction {
            request.insert(
                "systemInstruction".to_owned(),
                json!({"parts": [{"text": instruction}]}),
            );
        }
        for (key, value) in &self.settings.extra {
            request.insert(key.clone(), value.clone());
        }
        Value::Object(request)
    }

    fn narrow(request: &mut Value, narrowing: &Narrowing) {
        let config = FunctionCalling::narrowed(narrowing).tool_config();
        match request.get_mut("toolConfig").and_then(Value::as_object_mut) {
            // Other keys of the settings' toolConfig stay as they are.
            Some(tool_config) => {
                tool_config.insert(
                    "functionCallingConfig".to_owned(),
                    config["functionCallingConfig"].clone(),
                );
            }
            None => request["toolConfig"] = config,
        }
    }

    fn sent(&mut self) {
        let content = self.user_content();
        self.history.extend(content);
        self.responses.clear();
        self.texts.clear();
    }

    fn repeated_call(&self, response: &Value, position: usize, id: &str) -> ResponseError {
        let at = function_call_path(response, id)
            .unwrap_or_else(|| format!("$.candidates (call {position})"));
        ResponseError::new(
            format!("{at}.id"),
            format!(
                "the function call id `{id}` was answered in an earlier response of this \
                 conversation; running it would run that call a second time, so nothing of this \
                 response runs"
            ),
        )
    }

    fn read(&mut self, response: &Value, calls: &GeminiCalls) -> Result<Reading, ResponseError> {
        // `calls` checked the shape of every part.
        let parts = calls
            .content
            .as_ref()
            .and_then(|content| content["parts"].as_array())
            .map_or(&[][..], Vec::as_slice);
        let mut text = String::new();
        let mut skipped = Vec::new();
        for part in parts {
            let Some(part) = part.as_object() else {
                continue;
            };
            if part.contains_key("functionCall") {
                continue;
            }
            let thought = part.get("thought").and_then(Value::as_bool) == Some(true);
            match part.get("text") {
                Some(Value::String(part_text)) if !thought => text.push_str(part_text),
                _ if thought => skipped.push("thought".to_owned()),
                _ => skipped.push(
                    part.keys()
                        .find(|key| *key != "thoughtSignature")
                        .cloned()
                        .unwrap_or_default(),
                ),
            }
        }
        // A candidate blocked before it had any content (`SAFETY`,
        // `PROHIBITED_CONTENT`, ...) has no calls to keep its reason: the
        // first candidate's reason is then why the response ended.
        let stop_reason = calls.finish_reason.clone().or_else(|| {
            response["candidates"][0]["finishReason"]
                .as_str()
                .map(str::to_owned)
        });
        Ok(Reading {
            stop_reason: stop_reason.unwrap_or_default(),
            skipped,
            text,
        })
    }

    fn answered<R: AsRef<ToolOutput>>(
        &mut self,
        _response: &Value,
        _reading: &Reading,
        round: &Round<GenerateContent, R>,
    ) {
        // A model turn with no parts is not sent back (the API refuses an
        // empty content).
        if let Some(content) = &round.answer.model_content
            && content["parts"]
                .as_array()
                .is_some_and(|parts| !parts.is_empty())
        {
            self.history.push(content.clone());
        }
        if let Some(content) = &round.answer.user_content {
            let parts = content["parts"].as_array().map_or(&[][..], Vec::as_slice);
            self.responses.extend(parts.iter().cloned());
        }
    }

    fn end<R>(
        &self,
        _response: &Value,
        stop_reason: &str,
        text: &str,
        round: &Round<GenerateContent, R>,
    ) -> Option<TurnEnd> {
        match stop_reason {
            "STOP" if !round.is_final_answer() => None,
            "STOP" => Some(TurnEnd::Answer(text.to_owned())),
            reason if REFUSALS.contains(&reason) => Some(TurnEnd::Refused(text.to_owned())),
            "" => Some(TurnEnd::Incomplete("no finishReason".to_owned())),
            reason => Some(TurnEnd::Incomplete(reason.to_owned())),
        }
    }
}

/// The JSON path of the `functionCall` part with `id` in `response`.
fn function_call_path(response: &Value, id: &str) -> Option<String> {
    let candidates = response["candidates"].as_array()?;
    candidates.iter().enumerate().find_map(|(i, candidate)| {
        let parts = candidate["content"]["parts"].as_array()?;
        let j = parts
            .iter()
            .position(|part| part["functionCall"]["id"].as_str() == Some(id))?;
        Some(format!("$.candidates[{i}].content.parts[{j}].functionCall"))
    })
}
