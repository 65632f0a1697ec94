// The prompts `{{prompt}}` draws from when a diary has no prompts.md: reflexivity, methods and emotions in research.
import Foundation

public enum BuiltinPrompts {
    public static let all: [String] = [
        // Reflexivity: who I am in this research, and what that does to it.
        "What did I assume today that a participant might not share?",
        "Where did my own background make something seem obvious that may not be?",
        "Whose voice was loudest in today's material, and whose was missing?",
        "How might the people I work with describe my role today?",
        "What would I have noticed today if I held the opposite position on my topic?",
        "When did I feel like an insider today, and when like an outsider?",
        "What did I leave out of my notes today, and why?",
        "Which of my categories felt like mine rather than my participants'?",
        "What power did I hold in today's encounters, and how did I use it?",
        // Methods: what I did, how it worked, what I would change.
        "Which decision about method did I make today, and what else could I have done?",
        "What surprised me in the data, and what does the surprise say about my expectations?",
        "Where did my method fit the question badly today?",
        "What would another researcher need to know to repeat what I did today?",
        "Which piece of evidence today is weakest, and how could I make it stronger?",
        "What question should I have asked but did not?",
        "Which code or concept is doing too much work right now?",
        "What did I count, sample or leave out today, and how did I decide?",
        "What would disconfirm the idea I am growing most fond of?",
        "Which note from earlier in the project reads differently now?",
        // Emotions: how the work felt, and what the feelings tell me.
        "What moment today stayed with me, and what did I feel then?",
        "What made me uncomfortable today, and what might it be pointing at?",
        "When did I feel most engaged today, and when did my attention drift?",
        "What am I avoiding in this project, and what would a first small step be?",
        "What am I proud of from today's work, however small?",
        "Which encounter today asked something of me emotionally?",
        "How tired or rested am I, and how does that colour what I wrote today?",
        "What am I anxious about in this project, and what do I actually know about it?",
        "What would I tell a friend who had the day I had?",
    ]
}
