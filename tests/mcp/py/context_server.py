"""An MCP server on the official Python SDK (MCPServer, stdio) whose tools use the request's
context: `steps` reports `n` steps of progress, `hang` reports that it started and then waits
until the client cancels it, and `was_cancelled` says whether that cancellation reached `hang`
(waiting for it up to ten seconds). For our client's context tests."""

import anyio

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


server.run()
