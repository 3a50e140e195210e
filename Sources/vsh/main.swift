import VshApp

VshMain.main()
