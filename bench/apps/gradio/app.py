"""The bench's Gradio Blocks app: two tabs, a dropdown, a slider, a text box and a button whose
output appears, and a chatbot. Every event the app handles is appended to the file named by
AXSNAP_BENCH_GRADIO_LOG (one JSON object a line), so a workload's check reads what the app did,
not what any tool showed."""

import json
import os

import gradio as gr

LOG = os.environ.get("AXSNAP_BENCH_GRADIO_LOG", "gradio-events.jsonl")


def record(event, **fields):
    with open(LOG, "a", encoding="utf-8") as f:
        f.write(json.dumps({"event": event, **fields}) + "\n")


def greet(greeting, name, times):
    text = " ".join([f"{greeting}, {name}!"] * int(times))
    record("greet", greeting=greeting, name=name, times=int(times), output=text)
    return text


def reply(message, history):
    answer = f"You said: {message}"
    record("chat", message=message, reply=answer)
    return history + [
        {"role": "user", "content": message},
        {"role": "assistant", "content": answer},
    ], ""


with gr.Blocks(title="Greeter") as demo:
    gr.Markdown("# Greeter")
    with gr.Tabs():
        with gr.Tab("Greet"):
            greeting = gr.Dropdown(["Hello", "Bonjour", "Hola"], value="Hello", label="Greeting")
            name = gr.Textbox(label="Name")
            times = gr.Slider(1, 5, value=1, step=1, label="Times")
            go = gr.Button("Greet", variant="primary")
            out = gr.Textbox(label="Greeting text", interactive=False)
            go.click(greet, [greeting, name, times], out)
        with gr.Tab("Chat"):
            chat = gr.Chatbot(label="Chat")
            message = gr.Textbox(label="Message")
            send = gr.Button("Send")
            send.click(reply, [message, chat], [chat, message])
            message.submit(reply, [message, chat], [chat, message])

if __name__ == "__main__":
    demo.launch(
        server_name="127.0.0.1",
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
    )
