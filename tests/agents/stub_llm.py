"""A local stub of an OpenAI-compatible chat-completions server
(``http.server`` in a thread on 127.0.0.1). Each test scripts its answers: a
callable gets the parsed request and returns (status, body) — so the stub can
read the chunk ids out of the prompt like a model would."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = Callable[[dict[str, Any]], tuple[int, Any]]


class StubLLM:
    def __init__(self, answers: list[Answer]) -> None:
        self.answers = answers
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.delay = 0.0
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def chat_answer(
    *, content: str | None = None, tool_calls: list[dict[str, Any]] | None = None,
    prompt_tokens: int = 100, completion_tokens: int = 20, model: str = "stub-model-7b",
) -> dict[str, Any]:  # fmt: skip
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if tool_calls else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def tool_call(
    call_id: str, name: str, arguments: dict[str, Any] | str
) -> dict[str, Any]:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": raw},
    }


def chunks_in_prompt(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The chunk data a model would read from the user message."""
    content = request["messages"][1]["content"]
    start = content.index("[", content.index("CASE_DOCUMENTS"))
    end = content.rindex("]") + 1
    return list(json.loads(content[start:end]))


@contextmanager
def stub_llm(answers: list[Answer]) -> Iterator[StubLLM]:
    stub = StubLLM(answers)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            return None

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length) or b"{}")
            stub.requests.append(body)
            stub.headers.append(dict(self.headers))
            if stub.delay:
                time.sleep(stub.delay)
            if self.path != "/v1/chat/completions":
                status, payload = 404, {"error": "not found"}
            elif stub.answers:
                status, payload = stub.answers.pop(0)(body)
            else:
                status, payload = 200, chat_answer(content="done")
            data = (
                payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            )
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stub.port = int(server.server_address[1])
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stub
    finally:
        server.shutdown()
        server.server_close()
