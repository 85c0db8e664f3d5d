"""Drives a toolnexus gateway (an McpServer over a LiveToolkit) with the official Python MCP
SDK's client over streamable HTTP (argv[1], the URL): lists, calls `grow` (which makes the
server behind the gateway add a tool), waits for the gateway's
notifications/tools/list_changed, lists again and calls the new tool. Prints one JSON report;
the Rust test judges it."""

import asyncio
import json
import sys

import anyio
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client


async def main():
    report = {"notifications": []}
    changed = anyio.Event()

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            report["notifications"].append(message.method)
            changed.set()

    async with streamable_http_client(sys.argv[1]) as streams:
        async with ClientSession(streams[0], streams[1], message_handler=on_message) as session:
            init = await session.initialize()
            report["list_changed_capability"] = bool(init.capabilities.tools and init.capabilities.tools.list_changed)
            report["before"] = [tool.name for tool in (await session.list_tools()).tools]
            grown = await session.call_tool("grow", {})
            report["grow"] = grown.content[0].text
            with anyio.fail_after(15):
                await changed.wait()
            report["after"] = [tool.name for tool in (await session.list_tools()).tools]
            late = await session.call_tool("late_tool", {"word": "through the gateway"})
            report["late_tool"] = {"is_error": bool(late.is_error), "text": late.content[0].text}
    print(json.dumps(report))


asyncio.run(main())
