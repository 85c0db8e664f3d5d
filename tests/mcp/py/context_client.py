"""Drives a toolnexus MCP server (the program argv[1], over stdio) with the official Python MCP
SDK's client: calls `steps` with a progress callback (so with a `progressToken`), then starts
`hang`, waits for its first progress report, cancels the call (the SDK sends
`notifications/cancelled`), and asks `was_cancelled` whether the tool saw it. Prints what it saw
as one JSON report; the Rust test asserts on it.

Then, when the server has it, calls `chatty` (which logs at every level) before any `logging/setLevel`, and again after
setting `warning`, recording each `notifications/message` it gets; and calls `ask_city` (which
asks the user) from this session, which declared no elicitation, then from a second session
whose elicitation callback answers in turn: a city, a number of days out of bounds, no; and
likewise `summarise` (which asks the client's model), answered with text, then with an image
only."""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters, stdio_client, types


async def main():
    report = {}
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with stdio_client(params) as (read, write):
        logs = []

        async def on_log(params):
            logs.append(params.model_dump(mode="json", exclude_none=True))

        async with ClientSession(read, write, logging_callback=on_log) as session:
            init = await session.initialize()
            report["logging_capability"] = init.capabilities.logging is not None

            seen = []

            async def on_progress(progress, total, message):
                seen.append([progress, total, message])

            result = await session.call_tool("steps", {"n": 3}, progress_callback=on_progress)
            report["steps"] = [b.text for b in result.content if b.type == "text"]
            report["steps_progress"] = seen

            # Without a callback the SDK sends no progress token: nothing may come.
            quiet = await session.call_tool("steps", {"n": 2})
            report["quiet"] = [b.text for b in quiet.content if b.type == "text"]

            started = asyncio.Event()

            async def on_start(progress, total, message):
                report["hang_progress"] = [progress, total, message]
                started.set()

            call = asyncio.create_task(session.call_tool("hang", {}, progress_callback=on_start))
            await asyncio.wait_for(started.wait(), 10)
            call.cancel()
            try:
                await call
                report["hang"] = "answered"
            except asyncio.CancelledError:
                report["hang"] = "cancelled"
            cancelled = await session.call_tool("was_cancelled", {})
            report["was_cancelled"] = [b.text for b in cancelled.content if b.type == "text"]

            # The messages of a call go out before its answer (a server without `chatty`, such
            # as a gateway over the Python server, is not asked).
            listed = await session.list_tools()
            if any(tool.name == "chatty" for tool in listed.tools):
                await session.call_tool("chatty", {})
                report["logs_default"], logs[:] = list(logs), []
                await session.set_logging_level("warning")
                await session.call_tool("chatty", {})
                report["logs_warning"] = list(logs)
                asked = await session.call_tool("ask_city", {})
                report["ask_unsupported"] = [b.text for b in asked.content if b.type == "text"]
                sampled = await session.call_tool("summarise", {"text": "a long story"})
                report["sample_unsupported"] = [b.text for b in sampled.content if b.type == "text"]

    if "ask_unsupported" in report:
        answers = [
            types.ElicitResult(action="accept", content={"city": "Lyon", "days": 3}),
            types.ElicitResult(action="accept", content={"city": "Lyon", "days": 90}),
            types.ElicitResult(action="decline"),
        ]
        questions = []

        async def on_elicit(context, params):
            questions.append(params.model_dump(mode="json", by_alias=True, exclude_none=True))
            return answers.pop(0)

        samples = [
            types.CreateMessageResult(
                role="assistant",
                content=types.TextContent(type="text", text="A story."),
                model="test-model",
                stop_reason="endTurn",
            ),
            types.CreateMessageResult(
                role="assistant",
                content=types.ImageContent(type="image", data="AAAA", mime_type="image/png"),
                model="test-model",
            ),
        ]
        requests = []

        async def on_sample(context, params):
            requests.append(params.model_dump(mode="json", by_alias=True, exclude_none=True))
            return samples.pop(0)

        async with stdio_client(params) as (read, write):
            async with ClientSession(
                read, write, elicitation_callback=on_elicit, sampling_callback=on_sample
            ) as session:
                await session.initialize()
                report["asked"] = []
                for _ in range(3):
                    result = await session.call_tool("ask_city", {})
                    report["asked"].append([b.text for b in result.content if b.type == "text"])
                report["questions"] = questions
                report["sampled"] = []
                for _ in range(2):
                    result = await session.call_tool("summarise", {"text": "a long story"})
                    report["sampled"].append([b.text for b in result.content if b.type == "text"])
                report["sample_requests"] = requests
    print(json.dumps(report))


asyncio.run(main())
