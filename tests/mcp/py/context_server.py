"""An MCP server on the official Python SDK (MCPServer, stdio) whose tools use the request's
context: `steps` reports `n` steps of progress, `hang` reports that it started and then waits
until the client cancels it, and `was_cancelled` says whether that cancellation reached `hang`
(waiting for it up to ten seconds). For our client's context tests.

`plan` asks the user for a trip (a city and a number of days, each with a default),
`ask_model` asks the client's model to answer `prompt`, and `chatter` logs two messages: for
our client's handlers (`McpSource::on_elicit`, `on_sample`, `on_log`)."""

import anyio
from pydantic import BaseModel

from mcp import types
from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("context")
cancelled = anyio.Event()


@server.tool()
async def steps(n: int, ctx: Context) -> str:
    """Reports n steps of progress, then answers."""
    for step in range(1, n + 1):
        await ctx.report_progress(step, n, f"step {step}")
    return f"{n} steps"


@server.tool()
async def hang(ctx: Context) -> str:
    """Reports that it started, then waits until cancelled."""
    await ctx.report_progress(0, None, "started")
    try:
        await anyio.sleep_forever()
    finally:
        cancelled.set()
    return "never"


@server.tool()
async def was_cancelled() -> str:
    """Whether a call of `hang` was cancelled."""
    with anyio.move_on_after(10):
        await cancelled.wait()
    return "true" if cancelled.is_set() else "false"


class Trip(BaseModel):
    city: str = "Paris"
    days: int = 3


@server.tool()
async def plan(ctx: Context) -> str:
    """Asks the user where to go, and says what came back."""
    result = await ctx.elicit("Where to?", Trip)
    if result.action == "accept":
        return f"accept {result.data.city} {result.data.days}"
    return result.action


@server.tool()
async def ask_model(prompt: str, ctx: Context) -> str:
    """Asks the client's model to answer the prompt."""
    message = types.SamplingMessage(role="user", content=types.TextContent(type="text", text=prompt))
    result = await ctx.session.create_message([message], max_tokens=20, system_prompt="Be brief.")
    return f"{result.content.text} ({result.model})"


@server.tool()
async def chatter(ctx: Context) -> str:
    """Logs two messages, then answers."""
    await ctx.info("hello from python")
    await ctx.log("warning", {"n": 1}, logger_name="py")
    return "chattered"


server.run()
