"""An MCP server on the official Python SDK (MCPServer, stdio) whose tool list changes: the
first call of `grow` adds `late_tool`, then the SDK's session sends
notifications/tools/list_changed. For the LiveToolkit interop test."""

from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("changing")


def late_tool(word: str) -> str:
    """A tool that joins after the first call."""
    return f"late {word}"


@server.tool()
async def grow(ctx: Context) -> str:
    """Adds late_tool and says the tool list changed."""
    server.add_tool(late_tool)
    await ctx.request_context.session.send_tool_list_changed()
    return "grown"


server.run()
