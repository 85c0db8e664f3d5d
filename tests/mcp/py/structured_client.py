"""Drives a toolnexus MCP server (the program argv[1], with the rest of argv, over stdio) with the
official Python MCP SDK's client, which validates each structured result against the tool's
`outputSchema`: lists the tools, calls `weather` and `bad_weather`, and prints what it saw as one
JSON report. Nothing here judges; the Rust test asserts on the report."""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters, stdio_client


async def main():
    report = {}
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            report["output_schemas"] = {t.name: t.output_schema for t in listed.tools if t.output_schema}
            weather = await session.call_tool("weather", {"city": "Chennai"})
            report["weather"] = {
                "is_error": bool(weather.is_error),
                "structured": weather.structured_content,
                "text": [b.text for b in weather.content if b.type == "text"],
            }
            try:
                await session.call_tool("bad_weather", {})
                report["bad_weather"] = "accepted"
            except RuntimeError as error:
                report["bad_weather"] = str(error)
    print(json.dumps(report))


asyncio.run(main())
