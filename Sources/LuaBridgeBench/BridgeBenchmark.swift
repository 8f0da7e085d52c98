import LuaBridge
